import type { RpcClient } from '@lws/messaging';

/**
 * Checks a worker's PIN through identity's one verification path (400 wrong, 423 locked). The
 * duress PIN passes exactly as the PIN does, and `duress` says it was that. The caller must raise
 * the silent duress emergency before it answers, and should do it without an extra round trip
 * (the check-in and the end of a shift carry `duress` into shifts' own transaction), so the
 * answer's path and time are the PIN's (docs/security.md, "The duress PIN").
 */
export async function verifyWorkerPin(rpc: RpcClient, userId: number, pin: string): Promise<{ duress: boolean }> {
  const { duress } = await rpc.send('identity.pin.verify.v1', { userId, pin });
  return { duress: duress === true };
}

/**
 * A PIN step with nothing of its own to carry the duress emergency: it is raised before the caller
 * answers. If raising it fails, so does the request, as any failure would: the worker's next
 * attempt raises it again.
 */
export async function checkWorkerPin(rpc: RpcClient, userId: number, pin: string): Promise<{ duress: boolean }> {
  const verified = await verifyWorkerPin(rpc, userId, pin);
  if (verified.duress) await raiseDuress(rpc, userId);
  return verified;
}

export async function raiseDuress(rpc: RpcClient, userId: number): Promise<void> {
  await rpc.send('shifts.emergency.raise.v1', { userId, duress: true });
}

/**
 * Runs a PIN step's own work and, for the duress PIN, raises the duress emergency alongside it
 * rather than before it, so the answer comes no later than the PIN's by a whole round trip. Both
 * are waited for: a failed raise fails the request (the worker's next attempt raises it again),
 * and the step's own refusal (e.g. 409) is answered as for the PIN, with the emergency raised.
 */
export async function withDuress<T>(rpc: RpcClient, userId: number, duress: boolean, step: () => Promise<T>): Promise<T> {
  if (!duress) return step();
  const [done, raised] = await Promise.allSettled([step(), raiseDuress(rpc, userId)]);
  if (raised.status === 'rejected') throw raised.reason;
  if (done.status === 'rejected') throw done.reason;
  return done.value;
}
