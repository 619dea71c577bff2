import type { Request } from 'express';

/** The longest bearer token identity compares: LWS's are about 52 characters. */
const MAX_TOKEN_LENGTH = 500;

/**
 * Whether the request authenticates as a machine: any `Authorization: Bearer` header. Such a request
 * is judged by its token alone, never by a cookie it may also carry, which is why it needs no CSRF
 * check: a cross-site form or script can make a browser send the cookie, but not this header.
 */
export const sendsBearer = (req: Request): boolean => /^Bearer(\s|$)/i.test(req.get('authorization') ?? '');

/** The token of `Authorization: Bearer <token>`, if there is one a token could be. */
export function bearerOf(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  return match && match[1].length <= MAX_TOKEN_LENGTH ? match[1] : undefined;
}
