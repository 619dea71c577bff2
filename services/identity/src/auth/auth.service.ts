import { Inject, Injectable } from '@nestjs/common';
import { RpcError } from '@lws/messaging';
import { UnitOfWork } from '@lws/platform';
import { PasswordHasher } from '../users/password-hasher';
import { UsersRepository } from '../users/users.repository';
import { toUserView } from '../users/user-view';

export const INVALID_CREDENTIALS = 'Invalid username or password';

@Injectable()
export class AuthService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly hasher: PasswordHasher,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  /** One answer for an unknown username and a wrong password, in the same time. */
  async verifyPassword(usernameInput: string, password: string) {
    const username = usernameInput.trim().toLowerCase();
    const row = await this.repo.findByUsername(username);
    const ok = row ? await this.hasher.verify(row.passwordHash, password) : await this.hasher.verifyAgainstNothing(password);
    if (!row || !ok) {
      await this.uow.run((_tx, emit) => emit('identity.login.failed.v1', { username, reason: 'bad_credentials' }));
      throw new RpcError(401, INVALID_CREDENTIALS);
    }
    await this.uow.run((_tx, emit) => emit('identity.login.succeeded.v1', { userId: row.id, username: row.username, method: 'password' }));
    return toUserView(row);
  }
}
