import { randomUUID } from 'node:crypto';
import { BadRequestException, Body, Controller, Delete, Get, Inject, NotFoundException, Param, Patch, Post, Req } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { PositiveIntPipe } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { createTeamSchema, updateTeamSchema } from './teams.schema';
import { TokenScope } from '../api-tokens/token-scope';

type TeamView = CommandMap['identity.team.get.v1']['reply']['team'];
type TeamFields = CommandMap['identity.team.create.v1']['request']['fields'];
type VisitType = TeamView['visitTypes'][number];

/** A visit type as the browser sees it: every field present, its policy an object (null: the team's). */
export function browserVisitType(v: VisitType) {
  return {
    id: v.id,
    name: v.name,
    minutes: v.minutes,
    checkInInterval: v.checkInInterval ?? null,
    smsToo: v.smsToo,
    escalationPolicy: v.escalationPolicy ? (JSON.parse(v.escalationPolicy) as Record<string, unknown>) : null,
  };
}

/** A visit type as written: a new one gets its id here, and keeps it. */
interface VisitTypeInput {
  id?: string;
  name: string;
  minutes: number;
  checkInInterval: number | null;
  smsToo: boolean;
  escalationPolicy: unknown;
}

export const teamId = () => new PositiveIntPipe('id', 'Invalid team ID');

/** What the browser gets: the team, its policy as an object. */
export function browserTeam(t: TeamView) {
  return {
    id: t.id,
    name: t.name,
    locationIds: t.locationIds,
    monitors: t.monitors,
    checkInPolicy: t.checkInPolicy,
    escalationPolicy: t.escalationPolicy ? (JSON.parse(t.escalationPolicy) as unknown) : null,
    emergencyNumbers: t.emergencyNumbers,
    voiceReminder: t.voiceReminder === true,
    onCallSchedule: t.onCallSchedule ? (JSON.parse(t.onCallSchedule) as unknown) : null,
    coverRequired: (t.coverRequired ?? 'off') as 'off' | 'warn' | 'refuse',
    visitTypes: t.visitTypes.map(browserVisitType),
    memberCount: t.memberCount,
    version: t.version,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/**
 * Teams (docs/api-teams.md). The superadmin manages them; an admin reads the teams they monitor
 * (or deputise for), and another team is a 404, as if it did not exist.
 */
@Controller('api/teams')
export class TeamsController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Get()
  @TokenScope('users:read')
  @Roles('admin', 'superadmin')
  async list(@Req() req: AuthedRequest) {
    const { teams } = await this.rpc.send(
      'identity.team.list.v1',
      req.session!.role === 'superadmin' ? {} : { monitoredBy: req.session!.userId },
    );
    return teams.map(browserTeam);
  }

  @Post()
  @Roles('superadmin')
  async create(@Body() body: unknown, @Req() req: AuthedRequest) {
    const input = parseInput(createTeamSchema, body);
    await this.checkLocations(input.locationIds);
    const { team } = await this.rpc.send('identity.team.create.v1', { fields: toFields(input), actorId: req.session!.userId });
    return browserTeam(team);
  }

  @Get(':id')
  @TokenScope('users:read')
  @Roles('admin', 'superadmin')
  async get(@Param('id', teamId()) id: number, @Req() req: AuthedRequest) {
    return browserTeam(await this.visible(id, req));
  }

  @Get(':id/members')
  @TokenScope('users:read')
  @Roles('admin', 'superadmin')
  async members(@Param('id', teamId()) id: number, @Req() req: AuthedRequest) {
    await this.visible(id, req);
    const { members } = await this.rpc.send('identity.team.members.v1', { teamId: id });
    return members.map((m) => ({ id: m.userId, username: m.username, name: m.name }));
  }

  /** Any of the fields; those not sent keep their value. */
  @Patch(':id')
  @Roles('superadmin')
  async update(@Param('id', teamId()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    const input = parseInput(updateTeamSchema, body);
    const { team: current } = await this.rpc.send('identity.team.get.v1', { teamId: id });
    if (input.locationIds) await this.checkLocations(input.locationIds);
    const merged = {
      name: input.name ?? current.name,
      locationIds: input.locationIds ?? current.locationIds,
      monitors: input.monitors ?? current.monitors,
      checkInPolicy: input.checkInPolicy ?? current.checkInPolicy,
      escalationPolicy:
        input.escalationPolicy === undefined
          ? current.escalationPolicy
            ? JSON.parse(current.escalationPolicy)
            : null
          : input.escalationPolicy,
      emergencyNumbers: input.emergencyNumbers ?? current.emergencyNumbers,
      voiceReminder: input.voiceReminder ?? current.voiceReminder === true,
      visitTypes: input.visitTypes ?? current.visitTypes.map(browserVisitType),
    };
    const { team } = await this.rpc.send('identity.team.update.v1', { teamId: id, fields: toFields(merged), actorId: req.session!.userId });
    return browserTeam(team);
  }

  @Delete(':id')
  @Roles('superadmin')
  async remove(@Param('id', teamId()) id: number, @Req() req: AuthedRequest) {
    return this.rpc.send('identity.team.delete.v1', { teamId: id, actorId: req.session!.userId });
  }

  private visible(id: number, req: AuthedRequest): Promise<TeamView> {
    return visibleTeam(this.rpc, id, req);
  }

  /** Every location named exists (locations owns them). */
  private async checkLocations(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const { locations } = await this.rpc.send('locations.location.list.v1', {});
    const known = new Set(locations.map((l) => l.id));
    const missing = ids.findIndex((l) => !known.has(l));
    if (missing >= 0) throw new BadRequestException({ message: 'Location not found', field: `locationIds.${missing}` });
  }
}

/** The team, if the caller may see it: the superadmin any, an admin those they monitor or deputise for; another is a 404. */
export async function visibleTeam(rpc: RpcClient, id: number, req: AuthedRequest): Promise<TeamView> {
  const { team } = await rpc.send('identity.team.get.v1', { teamId: id });
  const me = req.session!.userId;
  if (req.session!.role !== 'superadmin' && !team.monitors.some((m) => m.userId === me || m.deputyUserId === me)) {
    throw new NotFoundException({ message: 'Team not found', field: 'id' });
  }
  return team;
}

function toFields(input: {
  name: string;
  locationIds: number[];
  monitors: { userId: number; deputyUserId?: number }[];
  checkInPolicy: { defaultInterval: number; allowedIntervals: number[] };
  escalationPolicy?: unknown;
  emergencyNumbers: string[];
  voiceReminder: boolean;
  visitTypes: VisitTypeInput[];
}): TeamFields {
  return {
    name: input.name,
    locationIds: input.locationIds,
    monitors: input.monitors.map((m) => ({ userId: m.userId, ...(m.deputyUserId !== undefined ? { deputyUserId: m.deputyUserId } : {}) })),
    checkInPolicy: input.checkInPolicy,
    ...(input.escalationPolicy !== undefined && input.escalationPolicy !== null
      ? { escalationPolicy: JSON.stringify(input.escalationPolicy) }
      : {}),
    emergencyNumbers: input.emergencyNumbers,
    ...(input.voiceReminder ? { voiceReminder: true } : {}),
    visitTypes: input.visitTypes.map((v) => ({
      id: v.id ?? randomUUID(),
      name: v.name,
      minutes: v.minutes,
      ...(v.checkInInterval !== null ? { checkInInterval: v.checkInInterval } : {}),
      smsToo: v.smsToo,
      ...(v.escalationPolicy !== null && v.escalationPolicy !== undefined ? { escalationPolicy: JSON.stringify(v.escalationPolicy) } : {}),
    })),
  };
}
