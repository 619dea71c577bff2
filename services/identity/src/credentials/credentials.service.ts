import { Inject, Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock } from '@lws/platform';
import { pinFailures, users, type UserRow } from '../db/schema';
import { PasswordHasher } from '../users/password-hasher';
import { UsersRepository } from '../users/users.repository';
import { toUserView } from '../users/user-view';
import {
  CURRENT_PASSWORD_INCORRECT,
  CURRENT_PIN_REQUIRED,
  DURESS_SAME_AS_PIN,
  DURESS_WORKERS_ONLY,
  NO_WORKER_WITH_PHONE,
  PHONE_SHARED,
  PIN_LOCKED,
  PIN_SAME_AS_DURESS,
  SUPERADMIN_ONLY,
  USER_NOT_FOUND,
} from './messages';
import { PinAssigner } from './pin-assigner';
import { PinHasher } from './pin-hasher';
import { PinVerifier } from './pin-verifier';
import { temporaryPassword } from './temporary-password';

type Reply<P extends keyof CommandMap> = CommandMap[P]['reply'];
type Request<P extends keyof CommandMap> = CommandMap[P]['request'];

@Injectable()
export class CredentialsService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly pins: PinAssigner,
    private readonly verifier: PinVerifier,
    private readonly hasher: PinHasher,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async verifyPin(req: Request<'identity.pin.verify.v1'>): Promise<Reply<'identity.pin.verify.v1'>> {
    const { duress } = await this.verifier.verifyStep(req.userId, req.pin);
    return duress ? { valid: true, duress } : { valid: true };
  }

  /**
   * A PIN texted in reply to a reminder: the sender's number names the worker (only a
   * worker, and only when exactly one has it: else nobody is named), then the one PIN path, with
   * its lockout and the duress PIN, as for a PIN typed in the app. A number several workers share
   * (kept from before numbers had to be a worker's own) is a 409 of its own, so the sender is told
   * to use the app rather than hearing nothing; no PIN is tried, so no worker's lockout moves.
   */
  async verifyPinByPhone(req: Request<'identity.pin.verify_by_phone.v1'>): Promise<Reply<'identity.pin.verify_by_phone.v1'>> {
    const found = await this.repo.workersWithPhone(req.phone);
    if (found.length > 1) throw new RpcError(409, PHONE_SHARED, { code: 'shared_phone' });
    if (found.length !== 1) throw new RpcError(404, NO_WORKER_WITH_PHONE, { code: 'no_worker' });
    const { duress } = await this.verifier.verifyStep(found[0], req.pin);
    return duress ? { userId: found[0], duress } : { userId: found[0] };
  }

  /**
   * A worker's duress PIN: set with their current PIN (never the duress PIN itself), and
   * never equal to the PIN. Absent: removed.
   */
  async setDuressPin(req: Request<'identity.pin.set_duress.v1'>): Promise<Reply<'identity.pin.set_duress.v1'>> {
    const user = await this.load(req.userId);
    if (user.role !== 'worker') throw new RpcError(403, DURESS_WORKERS_ONLY, { code: 'not_a_worker' });
    await this.verifier.verify(user.id, req.currentPin, 'currentPin');
    if (req.duressPin !== undefined && req.duressPin === req.currentPin)
      throw new RpcError(400, DURESS_SAME_AS_PIN, { field: 'duressPin' });
    const duressPinHash = req.duressPin === undefined ? null : this.hasher.hash(req.duressPin);
    const row = await this.uow.run(async (tx, emit) => {
      const [updated] = await tx.update(users).set({ duressPinHash, updatedAt: this.clock() }).where(eq(users.id, user.id)).returning();
      await emit('identity.credential.changed.v1', { userId: user.id, credential: 'duress_pin', changedBy: user.id, reset: false });
      return updated;
    });
    return { user: toUserView(row) };
  }

  /**
   * The current PIN (when one is set) goes through the one verification path, lockout included.
   * The new PIN may not be the duress PIN: one of the two would then stop working.
   */
  async changePin(req: Request<'identity.pin.change.v1'>): Promise<Reply<'identity.pin.change.v1'>> {
    const user = await this.load(req.userId);
    if (user.pinHash) {
      if (!req.currentPin) throw new RpcError(400, CURRENT_PIN_REQUIRED, { field: 'currentPin' });
      await this.verifier.verify(user.id, req.currentPin, 'currentPin');
    } else if (this.verifier.isLocked(user)) {
      throw new RpcError(423, PIN_LOCKED, { code: 'pin_locked' });
    }
    if (user.duressPinHash && this.hasher.matches(user.duressPinHash, req.newPin))
      throw new RpcError(400, PIN_SAME_AS_DURESS, { field: 'newPin' });
    const { result } = await this.pins.assign(req.newPin, (pinHash) =>
      this.uow.run(async (tx, emit) => {
        const [row] = await tx.update(users).set({ pinHash, updatedAt: this.clock() }).where(eq(users.id, user.id)).returning();
        await emit('identity.credential.changed.v1', { userId: user.id, credential: 'pin', changedBy: user.id, reset: false });
        return row;
      }),
    );
    return { user: toUserView(result) };
  }

  /** A new random PIN, shown once; it also lifts a lockout, which is how an account gets unlocked early. */
  async resetPin(req: Request<'identity.pin.reset.v1'>): Promise<Reply<'identity.pin.reset.v1'>> {
    await this.requireSuperadmin(req.resetBy);
    const user = await this.load(req.userId);
    const { generatedPin } = await this.pins.assign(
      undefined,
      (pinHash) =>
        this.uow.run(async (tx, emit) => {
          await tx.update(users).set({ pinHash, pinLockedUntil: null, updatedAt: this.clock() }).where(eq(users.id, user.id));
          await tx.delete(pinFailures).where(eq(pinFailures.userId, user.id));
          await emit('identity.credential.changed.v1', { userId: user.id, credential: 'pin', changedBy: req.resetBy, reset: true });
        }),
      // The drawn PIN is never the worker's duress PIN.
      user.duressPinHash,
    );
    return { pin: generatedPin! };
  }

  async changePassword(req: Request<'identity.password.change.v1'>): Promise<Reply<'identity.password.change.v1'>> {
    const user = await this.load(req.userId);
    if (!(await this.passwords.verify(user.passwordHash, req.currentPassword))) {
      throw new RpcError(400, CURRENT_PASSWORD_INCORRECT, { field: 'currentPassword', code: 'wrong_password' });
    }
    const passwordHash = await this.passwords.hash(req.newPassword);
    await this.uow.run(async (tx, emit) => {
      await tx.update(users).set({ passwordHash, passwordIsTemporary: false, updatedAt: this.clock() }).where(eq(users.id, user.id));
      await emit('identity.credential.changed.v1', { userId: user.id, credential: 'password', changedBy: user.id, reset: false });
    });
    return { changed: true };
  }

  /** A one-time password the user must replace (password_is_temporary until the next change). */
  async resetPassword(req: Request<'identity.password.reset.v1'>): Promise<Reply<'identity.password.reset.v1'>> {
    await this.requireSuperadmin(req.resetBy);
    const user = await this.load(req.userId);
    const password = temporaryPassword();
    const passwordHash = await this.passwords.hash(password);
    await this.uow.run(async (tx, emit) => {
      await tx.update(users).set({ passwordHash, passwordIsTemporary: true, updatedAt: this.clock() }).where(eq(users.id, user.id));
      await emit('identity.credential.changed.v1', { userId: user.id, credential: 'password', changedBy: req.resetBy, reset: true });
    });
    return { temporaryPassword: password };
  }

  private async load(userId: number): Promise<UserRow> {
    const user = await this.repo.findById(userId);
    if (!user) throw new RpcError(404, USER_NOT_FOUND, { field: 'userId' });
    return user;
  }

  /** The gateway checks the role too; identity does not take its word for who may reset. */
  private async requireSuperadmin(actorId: number): Promise<void> {
    const actor = await this.repo.findById(actorId);
    if (actor?.role !== 'superadmin') throw new RpcError(403, SUPERADMIN_ONLY);
  }
}
