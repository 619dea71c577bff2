import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The secret prefix Standard Webhooks defines; the rest is the key, base64. */
const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes (Standard Webhooks asks for 24 to 64). */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks headers for one attempt: the message id, the attempt's time in seconds, and
 * one `v1,` signature per secret (two while a rotation's grace lasts, so a receiver holding either
 * secret verifies it). Signed by the standardwebhooks library, never by hand.
 */
export function signedHeaders(messageId: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
