import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Req,
} from '@nestjs/common';
import type { RpcClient } from '@lws/messaging';
import { actorOf, adminTeams, PositiveIntPipe, type Actor } from '../common/access';
import { RPC } from '../common/rpc';
import { camelCaseKeys, parseInput } from '../common/validation';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { publicUser } from '../auth/auth.service';
import { createUserSchema, moveTeamSchema, NO_TEAM, PIN_CHANGE_FIELDS, TEAM_NOT_FOUND, updateProfileSchema } from './users.schema';
import { managerOf, UsersService } from './users.service';
import { TokenScope } from '../api-tokens/token-scope';

@Controller('api/users')
export class UsersController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    private readonly users: UsersService,
  ) {}

  /** Admins create workers; a superadmin may also create admins (identity enforces it). */
  @Post()
  @Roles('admin', 'superadmin')
  async create(@Body() body: unknown, @Req() req: AuthedRequest) {
    const { pinCode, monitorTeamIds, ...input } = parseInput(createUserSchema, body);
    const actorRole = req.session!.role === 'superadmin' ? 'superadmin' : 'admin';
    const teamId = await this.newWorkersTeam(actorOf(req), input.role, input.teamId);
    const { user, generatedPin } = await this.rpc.send('identity.user.create.v1', {
      ...input,
      ...(teamId !== undefined ? { teamId } : {}),
      ...(monitorTeamIds?.length ? { monitorTeams: { teamIds: monitorTeamIds } } : {}),
      ...(input.medicalInfo ? { medicalInfo: input.medicalInfo } : {}),
      ...(pinCode ? { pin: pinCode } : {}),
      actorRole,
      actorId: req.session!.userId,
    });
    // Without a chosen PIN identity draws one: shown to the creator this once.
    return { user: { ...publicUser(user), ...(user.teamId ? { teamId: user.teamId } : {}) }, ...(generatedPin ? { generatedPin } : {}) };
  }

  /**
   * An admin of some teams adds workers to those teams only: the one named, or their first. The
   * superadmin and an admin of every team may name any team (none: the oldest, identity's rule).
   */
  private async newWorkersTeam(actor: Actor, role: 'worker' | 'admin', teamId: number | undefined): Promise<number | undefined> {
    if (actor.role !== 'admin' || role !== 'worker') return teamId;
    const scope = await adminTeams(this.rpc, actor, false);
    if (!scope || scope.all) return teamId;
    if (teamId !== undefined && !scope.teamIds.includes(teamId))
      throw new BadRequestException({ message: TEAM_NOT_FOUND, field: 'teamId' });
    if (scope.teamIds.length === 0) throw new BadRequestException({ message: NO_TEAM, field: 'teamId' });
    return teamId ?? scope.teamIds[0];
  }

  @Get(':id/with-relations')
  @TokenScope('users:read')
  withRelations(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest) {
    return this.users.withRelations(actorOf(req), id);
  }

  /** One route, two operations (as the spec's clients send them): a profile change or a PIN change. */
  @Patch(':id')
  update(@Param('id', new PositiveIntPipe()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    if (isPinChange(body)) return this.users.changePin(actorOf(req), id, body);
    if (isTeamMove(body)) return this.moveTeam(id, body, req);
    return this.users.updateProfile(actorOf(req), id, parseInput(updateProfileSchema, body));
  }

  private async moveTeam(id: number, body: unknown, req: AuthedRequest) {
    if (req.session!.role !== 'superadmin') throw new ForbiddenException({ message: 'Only a superadmin moves workers between teams' });
    const { teamId } = parseInput(moveTeamSchema, body);
    return this.rpc.send('identity.user.set_team.v1', { userId: id, teamId, actorId: req.session!.userId });
  }

  @Delete(':id')
  @Roles('admin', 'superadmin')
  remove(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest) {
    return this.users.delete(managerOf(req), id);
  }

  /** A leaver's account closes at once: every session ends, a shift in progress ends, monitors are told. */
  @Post(':id/deactivate')
  @HttpCode(200)
  @Roles('admin', 'superadmin')
  deactivate(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest) {
    return this.users.setActive(managerOf(req), id, false);
  }

  @Post(':id/reactivate')
  @HttpCode(200)
  @Roles('admin', 'superadmin')
  reactivate(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest) {
    return this.users.setActive(managerOf(req), id, true);
  }
}

/** A team move travels alone too. */
function isTeamMove(body: unknown): boolean {
  const keys = Object.keys((camelCaseKeys(body) ?? {}) as object);
  if (!keys.includes('teamId')) return false;
  if (keys.length !== 1) throw new BadRequestException({ message: 'A team change cannot be combined with other changes', field: 'teamId' });
  return true;
}

/** A PIN change travels alone, so a profile edit can never slip past the PIN checks or the other way round. */
function isPinChange(body: unknown): boolean {
  const keys = Object.keys((camelCaseKeys(body) ?? {}) as object);
  const isPin = (k: string) => (PIN_CHANGE_FIELDS as readonly string[]).includes(k);
  if (!keys.some(isPin)) return false;
  if (!keys.every(isPin))
    throw new BadRequestException({ message: 'A PIN change cannot be combined with other changes', field: 'pinCode' });
  return true;
}
