import type { RpcClient } from '@lws/messaging';

/**
 * Checks a worker's PIN through identity's one verification path (400 wrong, 423 locked). The
 * duress PIN (issue 13) passes exactly as the PIN does; before the caller answers, a silent duress
 * emergency is raised, so a worker forced to enter a PIN can call for help unseen. If raising it
 * fails, so does the request, as any failure would: the worker's next attempt raises it again.
 */
export async function checkWorkerPin(rpc: RpcClient, userId: number, pin: string): Promise<{ duress: boolean }> {
  const { duress } = await rpc.send('identity.pin.verify.v1', { userId, pin });
  if (duress) await raiseDuress(rpc, userId);
  return { duress: duress === true };
}

export async function raiseDuress(rpc: RpcClient, userId: number): Promise<void> {
  await rpc.send('shifts.emergency.raise.v1', { userId, duress: true });
}
