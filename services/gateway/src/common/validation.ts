import { BadRequestException } from '@nestjs/common';
import type { z } from 'zod';

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/**
 * The spec's clients send snake_case variants of some fields; the API is camelCase.
 * Top-level snake_case keys are accepted and renamed; a camelCase key wins when both exist.
 */
export function camelCaseKeys(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  // Defined, never assigned: a JSON key "__proto__" stays an own (and so unknown) field instead of
  // becoming the object's prototype, whose fields the schema would then read as if sent.
  const set = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [key, value] of Object.entries(body)) {
    if (/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(key)) {
      const c = camel(key);
      if (!Object.hasOwn(body, c)) set(c, value);
    } else {
      set(key, value);
    }
  }
  return out;
}

/** Validates a request body; the 400 names the first failing field with the spec's message. */
export function parseInput<S extends z.ZodTypeAny>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(camelCaseKeys(body ?? {}));
  if (!result.success) {
    const issue = result.error.issues[0];
    if (issue.code === 'unrecognized_keys') {
      // A field the call does not take is refused by name, never silently dropped ("isAdmin": true).
      const field = [...issue.path, issue.keys[0]].join('.');
      const message = issue.message.startsWith('Unrecognized key') ? `Unknown field: ${issue.keys.join(', ')}` : issue.message;
      throw new BadRequestException({ message, field });
    }
    const field = issue.path.join('.') || undefined;
    throw new BadRequestException({ message: issue.message, ...(field ? { field } : {}) });
  }
  return result.data;
}
