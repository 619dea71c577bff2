import { Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { RpcError } from '@lws/messaging';
import type { Tx } from '@lws/platform';
import { users, type UserRow } from '../db/schema';
import { PIN_NOT_AVAILABLE } from './messages';
import { isPinClash } from './pin-clash';
import { PinHasher } from './pin-hasher';

/** Enough random draws to find a free PIN while fewer than ~95% of the 10,000 are taken. */
const MAX_DRAWS = 60;

export interface AssignedPin<T> {
  result: T;
  /** The PIN identity drew, to be shown once; absent when the caller chose it. */
  generatedPin?: string;
}

/**
 * Sets a PIN that no other user has. `work` writes the hash in its own transaction; the unique
 * index refuses a clash, which is answered 409 for a chosen PIN (never saying whose it is) or
 * retried with a new random PIN.
 */
@Injectable()
export class PinAssigner {
  constructor(private readonly hasher: PinHasher) {}

  async assign<T>(chosen: string | undefined, work: (pinHash: string) => Promise<T>): Promise<AssignedPin<T>> {
    for (let draw = 0; draw < MAX_DRAWS; draw++) {
      const pin = chosen ?? this.hasher.randomPin();
      try {
        const result = await work(this.hasher.hash(pin));
        return chosen ? { result } : { result, generatedPin: pin };
      } catch (err) {
        if (!isPinClash(err)) throw err;
        if (chosen) throw new RpcError(409, PIN_NOT_AVAILABLE, { field: 'pinCode', code: 'pin_taken' });
      }
    }
    throw new RpcError(503, 'No unused PIN could be drawn; please try again', { code: 'pins_exhausted' });
  }
}

/** Writes a PIN hash inside the caller's transaction; a clash raises the error `assign` handles. */
export async function writePinHash(tx: Tx, userId: number, pinHash: string): Promise<UserRow> {
  const [row] = await tx.update(users).set({ pinHash }).where(eq(users.id, userId)).returning();
  return row;
}
