import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { RpcError } from '@lws/messaging';
import { CLOCK, rowsOf, UnitOfWork, type Clock, type Tx } from '@lws/platform';
import { pinFailures, users, type UserRow } from '../db/schema';
import { INCORRECT_PIN, NO_PIN_SET, PIN_LOCKED, USER_NOT_FOUND } from './messages';
import { PinHasher } from './pin-hasher';

export const MAX_PIN_FAILURES = 5;
export const PIN_FAILURE_WINDOW_MS = 15 * 60_000;
export const PIN_LOCK_MS = 15 * 60_000;

const userRow = rowsOf(users);

/**
 * Locks and reads one user by id. Every PIN step runs it, so it is a template, not the query
 * builder (whose CPU cost per statement is about fifty times a template's, bench/checkin); the
 * columns are mapped through the table definition, so the row is exactly what a select returns.
 */
async function lockUser(tx: Tx, userId: number): Promise<UserRow | undefined> {
  const { rows } = (await tx.execute(sql`select * from ${users} where id = ${userId} for update`)) as unknown as {
    rows: Record<string, unknown>[];
  };
  return rows[0] ? userRow(rows[0]) : undefined;
}

type Outcome = 'ok' | 'duress' | 'wrong' | 'locked' | 'no-pin' | 'missing';

/** No user has it (ids start at 1): a kiosk's PIN step for nobody it can sign in. */
const NOBODY = 0;
/** What a PIN is compared with when there is no user's hash: an HMAC-SHA256's length, matching no PIN. */
const NO_PIN_HASH = '0'.repeat(64);

/**
 * The one PIN-verification path: every PIN step in the product (end shift, check-in, alert
 * dialog, PIN change, kiosk login) goes through here, so the lockout cannot be sidestepped.
 * Five wrong PINs within 15 minutes lock PIN actions for 15 minutes, a correct PIN included.
 */
@Injectable()
export class PinVerifier {
  constructor(
    private readonly hasher: PinHasher,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  isLocked(user: Pick<UserRow, 'pinLockedUntil'>, now = this.clock()): boolean {
    return user.pinLockedUntil !== null && user.pinLockedUntil > now;
  }

  /**
   * Checks the PIN of a known user. Resolves with the user; throws 400 (wrong PIN or none set,
   * naming `field`), 404 or 423. A wrong PIN is recorded even though the caller gets an error.
   * The duress PIN counts as wrong here: only a PIN step a worker takes accepts it (below).
   */
  async verify(userId: number, pin: string, field = 'pin'): Promise<UserRow> {
    return (await this.check(userId, pin, field, false)).user;
  }

  /**
   * A worker's PIN step (check-in, end shift, the alert dialog, a kiosk, "I'm safe now"): the
   * duress PIN passes as the PIN does, clearing wrong attempts alike, and `duress` says it was that.
   * The PIN is compared first, so a duress PIN that came to equal the PIN is simply the PIN.
   */
  async verifyStep(userId: number, pin: string): Promise<{ user: UserRow; duress: boolean }> {
    return this.check(userId, pin, 'pin', true);
  }

  /**
   * A kiosk sign-in's PIN step, for the worker picked on the roster or typed (`username`), or for
   * nobody (`userId` undefined: an unknown name, an account that is no worker or has no PIN). Every
   * refusal is a failed sign-in of `username`, recorded in the step's own transaction. Nobody takes
   * the path of a wrong PIN (the row lock, the comparison, the failure and its count, the event, one
   * commit), its statements writing nothing of their own, so the answer's time does not tell whether
   * a name is a worker's (as a password sign-in verifies against nothing for an unknown name).
   */
  async verifyKioskStep(userId: number | undefined, username: string, pin: string): Promise<{ user: UserRow; duress: boolean }> {
    return this.check(userId ?? NOBODY, pin, 'pin', true, username);
  }

  private async check(
    userId: number,
    pin: string,
    field: string,
    allowDuress: boolean,
    signingIn?: string,
  ): Promise<{ user: UserRow; duress: boolean }> {
    const now = this.clock();
    const { outcome, user } = await this.uow.run(async (tx, emit): Promise<{ outcome: Outcome; user?: UserRow }> => {
      const failedSignIn = async () => {
        if (signingIn !== undefined) await emit('identity.login.failed.v1', { username: signingIn, reason: 'bad_credentials' });
      };
      // Row lock: concurrent guesses for one account are counted one after the other.
      const row = await lockUser(tx, userId);
      if (!row) {
        // The same comparison and statements as a wrong PIN, so nobody is not answered sooner.
        this.hasher.matches(NO_PIN_HASH, pin);
        await this.recordFailure(tx, userId, now);
        await failedSignIn();
        return { outcome: 'missing' };
      }
      if (!row.pinHash) return { outcome: this.isLocked(row, now) ? 'locked' : 'no-pin' };
      if (this.isLocked(row, now)) return { outcome: 'locked' };
      if (this.hasher.matches(row.pinHash, pin)) {
        await this.clearFailures(tx, row);
        return { outcome: 'ok', user: row };
      }
      if (allowDuress && row.duressPinHash && this.hasher.matches(row.duressPinHash, pin)) {
        await this.clearFailures(tx, row);
        return { outcome: 'duress', user: row };
      }
      if ((await this.recordFailure(tx, userId, now)) < MAX_PIN_FAILURES) {
        await failedSignIn();
        return { outcome: 'wrong' };
      }
      const lockedUntil = new Date(now.getTime() + PIN_LOCK_MS);
      await tx.execute(sql`update ${users} set pin_locked_until = ${lockedUntil.toISOString()}::timestamptz where id = ${userId}`);
      // The lock replaces the failures: once it ends the account starts from zero.
      await tx.execute(sql`delete from ${pinFailures} where user_id = ${userId}`);
      await emit('identity.pin.locked.v1', { userId, username: row.username, lockedUntil: lockedUntil.toISOString() });
      return { outcome: 'locked' };
    });
    switch (outcome) {
      case 'ok':
        return { user: user!, duress: false };
      case 'duress':
        return { user: user!, duress: true };
      case 'missing':
        throw new RpcError(404, USER_NOT_FOUND, { field: 'userId' });
      case 'no-pin':
        throw new RpcError(400, NO_PIN_SET, { field, code: 'no_pin' });
      case 'locked':
        throw new RpcError(423, PIN_LOCKED, { code: 'pin_locked' });
      case 'wrong':
        throw new RpcError(400, INCORRECT_PIN, { field, code: 'wrong_pin' });
    }
  }

  /**
   * Records a wrong PIN and answers how many fell in the window. For a user id nobody has, the same
   * two statements insert nothing and count none.
   */
  private async recordFailure(tx: Tx, userId: number, now: Date): Promise<number> {
    const windowStart = new Date(now.getTime() - PIN_FAILURE_WINDOW_MS).toISOString();
    await tx.execute(
      sql`insert into ${pinFailures} (user_id, failed_at) select ${userId}, ${now.toISOString()}::timestamptz where exists (select 1 from ${users} where id = ${userId})`,
    );
    const { rows } = (await tx.execute(
      sql`select count(*)::int as n from ${pinFailures} where user_id = ${userId} and failed_at > ${windowStart}::timestamptz`,
    )) as unknown as { rows: { n: number }[] };
    return rows[0].n;
  }

  /** A correct PIN forgets earlier wrong ones, and an expired lock. */
  private async clearFailures(tx: Tx, user: UserRow): Promise<void> {
    await tx.execute(sql`delete from ${pinFailures} where user_id = ${user.id}`);
    if (user.pinLockedUntil !== null) await tx.execute(sql`update ${users} set pin_locked_until = null where id = ${user.id}`);
  }
}
