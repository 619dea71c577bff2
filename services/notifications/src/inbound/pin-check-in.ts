import { Inject, Injectable } from '@nestjs/common';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { LOGGER, RPC, type Logger } from '@lws/platform';

const LONDON = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** What became of a PIN given without the app (a text, or a call's keypad). */
export type PinCheckInOutcome =
  | { kind: 'checked_in'; at: string; due: string }
  | { kind: 'wrong_pin' }
  | { kind: 'locked' }
  | { kind: 'not_on_shift' }
  | { kind: 'unknown_sender' }
  | { kind: 'shared_number' }
  | { kind: 'failed' };

/**
 * A check-in without a data signal: the PIN goes through identity's one path (the
 * lockout, and the duress PIN, which raises a silent duress emergency and then checks in as the
 * PIN does), and shifts records the check-in once per `key` (the text's or the call's SID).
 */
@Injectable()
export class PinCheckIn {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** A PIN texted from a phone: the one worker whose number it is. */
  async byPhone(phone: string, pin: string, key: string): Promise<PinCheckInOutcome> {
    let verified: { userId: number; duress?: boolean };
    try {
      verified = await this.rpc.send('identity.pin.verify_by_phone.v1', { phone, pin });
    } catch (err) {
      return this.refused(err, 'unknown_sender');
    }
    return this.record(verified.userId, verified.duress === true, key);
  }

  /** A PIN keyed in on a call LWS made to the worker. */
  async byUser(userId: number, pin: string, key: string): Promise<PinCheckInOutcome> {
    let duress: boolean;
    try {
      duress = (await this.rpc.send('identity.pin.verify.v1', { userId, pin })).duress === true;
    } catch (err) {
      return this.refused(err, 'failed');
    }
    return this.record(userId, duress, key);
  }

  private refused(err: unknown, notFound: 'unknown_sender' | 'failed'): PinCheckInOutcome {
    if (err instanceof RemoteError && err.status === 404) return { kind: notFound };
    if (err instanceof RemoteError && err.status === 409 && err.code === 'shared_phone') return { kind: 'shared_number' };
    if (err instanceof RemoteError && err.status === 400) return { kind: 'wrong_pin' };
    if (err instanceof RemoteError && err.status === 423) return { kind: 'locked' };
    return this.failed(err);
  }

  private async record(userId: number, duress: boolean, key: string): Promise<PinCheckInOutcome> {
    try {
      // The duress PIN: shifts raises the silent emergency in the check-in's own transaction.
      const { checkIn } = await this.rpc.send('shifts.checkin.record.v1', { userId, idempotencyKey: key, ...(duress ? { duress } : {}) });
      this.logger.info({ userId, via: key.split(':')[0] }, 'checked in without the app');
      return { kind: 'checked_in', at: LONDON.format(new Date(checkIn.checkedInAt)), due: LONDON.format(new Date(checkIn.nextCheckInAt)) };
    } catch (err) {
      if (err instanceof RemoteError && err.status === 409) return { kind: 'not_on_shift' };
      return this.failed(err);
    }
  }

  /** The worker is told, so they can try again or use the app: such a check-in is never dropped silently. */
  private failed(err: unknown): PinCheckInOutcome {
    this.logger.error({ err }, 'a check-in without the app could not be recorded; the worker was told to try again');
    return { kind: 'failed' };
  }
}
