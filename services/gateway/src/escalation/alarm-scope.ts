import type { RpcClient } from '@lws/messaging';
import { adminTeams, type Actor, type AdminTeams } from '../common/access';

/**
 * What of escalation's an admin may see and act on, as request fields: their teams' alarms (an
 * alarm stays the team's its worker was in when it opened, so a worker who moved leaves their older
 * alarms with the old team) and their teams' workers' check-ins. Nothing for the superadmin, or an
 * admin who covers every team.
 */
export const alarmScopeFields = (teams: AdminTeams | undefined) =>
  !teams || teams.all ? {} : { scope: { userIds: teams.userIds }, teams: { teamIds: teams.teamIds } };

/** alarmScopeFields for the signed-in actor, asked of identity on every call as every scope is. */
export async function alarmScope(rpc: RpcClient, actor: Actor) {
  return alarmScopeFields(await adminTeams(rpc, actor));
}
