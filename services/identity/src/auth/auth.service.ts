import { Inject, Injectable } from '@nestjs/common';
import { RpcError } from '@lws/messaging';
import { UnitOfWork } from '@lws/platform';
import { PasswordHasher } from '../users/password-hasher';
import { UsersRepository } from '../users/users.repository';
import { toUserView } from '../users/user-view';
import { SsoService } from '../sso/sso.service';

export const INVALID_CREDENTIALS = 'Invalid username or password';

export function passwordOff(displayName: string): string {
  return `Your organisation signs in with ${displayName || 'its identity provider'}: use that button instead of a password`;
}

@Injectable()
export class AuthService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly hasher: PasswordHasher,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    private readonly sso: SsoService,
  ) {}

  /** One answer for an unknown username and a wrong password, in the same time. */
  async verifyPassword(usernameInput: string, password: string) {
    const username = usernameInput.trim().toLowerCase();
    const row = await this.repo.findByUsername(username);
    const ok = row ? await this.hasher.verify(row.passwordHash, password) : await this.hasher.verifyAgainstNothing(password);
    // A deactivated account gets the answer a wrong password gets: it tells nobody it exists.
    if (!row || !ok || row.disabledAt) {
      await this.uow.run((_tx, emit) => emit('identity.login.failed.v1', { username, reason: 'bad_credentials' }));
      throw new RpcError(401, INVALID_CREDENTIALS);
    }
    // With single sign-on for everyone, a password opens only the superadmin's break-glass account.
    const { allowed, displayName } = await this.sso.passwordAllowed(row.role);
    if (!allowed) throw new RpcError(403, passwordOff(displayName), { code: 'sso_required' });
    await this.uow.run((_tx, emit) => emit('identity.login.succeeded.v1', { userId: row.id, username: row.username, method: 'password' }));
    return toUserView(row);
  }
}
