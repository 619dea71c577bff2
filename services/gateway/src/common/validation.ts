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
  for (const [key, value] of Object.entries(body)) {
    if (key.includes('_')) {
      const c = camel(key);
      if (!(c in (body as Record<string, unknown>))) out[c] = value;
    } else {
      out[key] = value;
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
