import { Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import type { Tx } from '@lws/platform';
import { users, type UserRow } from '../db/schema';
import { PinHasher } from './pin-hasher';

export interface AssignedPin<T> {
  result: T;
  /** The PIN identity drew, to be shown once; absent when the caller chose it. */
  generatedPin?: string;
}

/**
 * Sets a user's PIN: the one they chose, or a random one returned once. PINs are not unique (a
 * kiosk asks who you are before your PIN), so choosing a PIN never reveals that someone else has
 * it: before, "This PIN is not available" turned the PIN change into an oracle for other
 * workers' PINs.
 */
@Injectable()
export class PinAssigner {
  constructor(private readonly hasher: PinHasher) {}

  /** `avoidHash`: a drawn PIN is never this one (the worker's duress PIN). */
  async assign<T>(chosen: string | undefined, work: (pinHash: string) => Promise<T>, avoidHash?: string | null): Promise<AssignedPin<T>> {
    let pin = chosen ?? this.hasher.randomPin();
    while (!chosen && avoidHash && this.hasher.matches(avoidHash, pin)) pin = this.hasher.randomPin();
    const result = await work(this.hasher.hash(pin));
    return chosen ? { result } : { result, generatedPin: pin };
  }
}

/** Writes a PIN hash inside the caller's transaction. */
export async function writePinHash(tx: Tx, userId: number, pinHash: string): Promise<UserRow> {
  const [row] = await tx.update(users).set({ pinHash }).where(eq(users.id, userId)).returning();
  return row;
}
