import { BadRequestException, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';

/** Bidirectional embeddings, overrides and isolates: text that displays other than it reads (U+202E makes "exe.txt" look like "txt.exe"). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
/** Half of a surrogate pair on its own: not text at all (UTF-8 cannot hold it; PostgreSQL refuses it in JSON). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Deeper than any request LWS takes; deeper bodies are refused before anything walks them. */
export const MAX_DEPTH = 16;

/**
 * The first text in `input` (keys too) that LWS refuses anywhere: a NUL character (PostgreSQL cannot
 * store it; it was a 500), a bidirectional control, or a lone surrogate (the fuzzer's long run found
 * it a 500 at login); and nesting deeper than MAX_DEPTH. Walked
 * without recursion, so a deep body cannot overflow the stack.
 */
export function unsafeText(input: unknown, root = ''): { field?: string; message: string } | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: input, path: root, depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const name = path || 'value';
      if (value.includes('\u0000')) return { field: path || undefined, message: `${name} must not contain NUL characters` };
      if (BIDI_CONTROL.test(value))
        return { field: path || undefined, message: `${name} must not contain bidirectional control characters` };
      if (LONE_SURROGATE.test(value)) return { field: path || undefined, message: `${name} must be valid Unicode text` };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH) return { field: path || undefined, message: `Request is nested too deeply (at most ${MAX_DEPTH} levels)` };
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (key.includes('\u0000') || BIDI_CONTROL.test(key) || LONE_SURROGATE.test(key)) {
        return { message: 'Field names must be valid Unicode text without NUL or bidirectional control characters' };
      }
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Every API request's body, query and path parameters are checked before a handler runs, so no
 * route can pass a NUL or a bidi override on to a service (400 naming the field). Twilio's signed
 * webhooks are left as Twilio sent them (their signature covers the exact text).
 */
@Injectable()
export class TextSafetyInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler) {
    if (ctx.getType() === 'http') {
      const req = ctx.switchToHttp().getRequest<Request>();
      if (!/^\/webhooks\//i.test(req.path)) {
        const problem = unsafeText(req.params) ?? unsafeText(req.query) ?? unsafeText(req.body, typeof req.body === 'string' ? 'file' : '');
        if (problem) throw new BadRequestException({ message: problem.message, ...(problem.field ? { field: problem.field } : {}) });
      }
    }
    return next.handle();
  }
}
