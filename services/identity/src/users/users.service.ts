import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { UnitOfWork } from '@lws/platform';
import { PasswordHasher } from './password-hasher';
import { UsersRepository } from './users.repository';
import { toUserView } from './user-view';
import type { Role } from '../db/schema';

type CreateUser = CommandMap['identity.user.create.v1'];

@Injectable()
export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly hasher: PasswordHasher,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  async get(userId: number) {
    const row = await this.repo.findById(userId);
    if (!row) throw new RpcError(404, 'User not found', { field: 'userId' });
    return toUserView(row);
  }

  async create(req: CreateUser['request']): Promise<CreateUser['reply']> {
    const username = req.username.trim().toLowerCase();
    const role: Role = req.role === 'admin' ? 'admin' : 'worker';
    if (role === 'admin' && req.actorRole !== 'superadmin') {
      throw new RpcError(403, 'Only a superadmin can create administrators', { field: 'role' });
    }
    const passwordHash = await this.hasher.hash(req.password);
    const row = await this.uow.run(async (tx, emit) => {
      const created = await this.repo.insert(tx, {
        username,
        passwordHash,
        name: req.name.trim(),
        phone: req.phone,
        role,
        medicalInfo: req.medicalInfo?.trim() || null,
      });
      if (!created) return undefined;
      await emit('identity.user.created.v1', {
        userId: created.id,
        username: created.username,
        name: created.name,
        role: created.role,
        ...(created.phone ? { phone: created.phone } : {}),
      });
      return created;
    });
    if (!row) {
      throw new RpcError(409, 'Username already exists. Please choose a different username.', { field: 'username' });
    }
    return { user: toUserView(row) };
  }
}
