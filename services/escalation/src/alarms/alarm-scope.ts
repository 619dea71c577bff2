import { sql, type SQL } from 'drizzle-orm';
import type { AlarmTeams, WorkerScope } from '@lws/contracts';
import { pgArray } from '@lws/platform';
import { alarms, deadlines, type AlarmRow } from '../db/schema';

/**
 * Whose alarms an admin sees, answers, counts in reports and may run the steps of. An alarm
 * belongs to the team its worker was in when it opened: that team's monitors were told and its
 * policy frozen onto it. So with `teams`, an alarm is the admin's when its team is one of theirs,
 * wherever the worker has moved since; an alarm of no known team (opened before teams), when its
 * worker is in `scope`. Without `teams` only `scope` decides (callers from before teams); with
 * neither, every alarm is.
 */
export interface AlarmScope {
  scope?: WorkerScope;
  teams?: AlarmTeams;
}

const ofWorkers = (s: AlarmScope, userId: number) => !s.scope || s.scope.userIds.includes(userId);

export function ownsAlarm(s: AlarmScope, alarm: Pick<AlarmRow, 'userId' | 'teamId'>): boolean {
  if (!s.teams) return ofWorkers(s, alarm.userId);
  return alarm.teamId !== null ? s.teams.teamIds.includes(alarm.teamId) : ofWorkers(s, alarm.userId);
}

/** An admin with no team and no worker: nothing is theirs, and nothing need be read. */
export const ownsNothing = (s: AlarmScope): boolean =>
  !!s.scope && s.scope.userIds.length === 0 && (!s.teams || s.teams.teamIds.length === 0);

/** ownsAlarm() as a condition on the alarms table; undefined when every alarm is theirs. */
export function alarmScopeSql(s: AlarmScope): SQL | undefined {
  const workers = s.scope ? sql`${alarms.userId} = any(${pgArray(s.scope.userIds)}::int[])` : undefined;
  if (!s.teams) return workers;
  const teams = sql`${alarms.teamId} = any(${pgArray(s.teams.teamIds)}::int[])`;
  return sql`(${teams} or (${alarms.teamId} is null${workers ? sql` and ${workers}` : sql``}))`;
}

/**
 * The due deadlines that are an admin's: a check-in's when the worker is in `scope`, an alarm
 * step's when the alarm is theirs (ownsAlarm); undefined when every one is.
 */
export function deadlineScopeSql(s: AlarmScope): SQL | undefined {
  if (!s.scope && !s.teams) return undefined;
  const workers = s.scope ? sql`${deadlines.userId} = any(${pgArray(s.scope.userIds)}::int[])` : sql`true`;
  const alarm = alarmScopeSql(s) ?? sql`true`;
  return sql`((${deadlines.kind} = 'checkin' and ${workers})
    or (${deadlines.kind} = 'alarm' and exists (select 1 from ${alarms} where ${alarms.id} = (${deadlines.payload} ->> 'alarmId')::uuid and ${alarm})))`;
}
