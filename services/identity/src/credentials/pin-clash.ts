const PIN_INDEX = 'users_pin_hash_unique';

/**
 * True when a write failed because another user already has this PIN (the unique index on
 * pin_hash). Drivers wrap the PostgreSQL error (drizzle puts it in `cause`), so the chain is walked.
 */
export function isPinClash(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505' && (constraint === PIN_INDEX || (typeof message === 'string' && message.includes(PIN_INDEX)))) return true;
  }
  return false;
}
