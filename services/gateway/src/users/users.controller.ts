import { Body, Controller, Inject, Post, Req } from '@nestjs/common';
import type { RpcClient } from '@lws/messaging';
import { RPC } from '../common/rpc';
import { parseInput } from '../common/validation';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { publicUser } from '../auth/auth.service';
import { createUserSchema } from './users.schema';

@Controller('api/users')
export class UsersController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  /** Admins create workers; a superadmin may also create admins (identity enforces it). */
  @Post()
  @Roles('admin', 'superadmin')
  async create(@Body() body: unknown, @Req() req: AuthedRequest) {
    const input = parseInput(createUserSchema, body);
    const actorRole = req.session!.role === 'superadmin' ? 'superadmin' : 'admin';
    const { user } = await this.rpc.send('identity.user.create.v1', {
      ...input,
      ...(input.medicalInfo ? { medicalInfo: input.medicalInfo } : {}),
      actorRole,
    });
    return { user: publicUser(user) };
  }
}
