import SCIMMY from 'scimmy';
import { RpcError } from '@lws/messaging';
import { isUniqueViolation } from '@lws/platform';
import type { ScimTokenRow } from '../db/schema';
import { EXTERNAL_ID_TAKEN } from '../users/users.service';
import { TEAM_NAME_TAKEN } from '../teams/teams.service';

export type ScimError = SCIMMY.Types.SCIMError;
export const ScimError = SCIMMY.Types.Error;

/** What the request does to the resource: a PATCH reads it first and applies only what its operations change. */
export type ScimMode = 'read' | 'create' | 'replace' | 'patch' | 'delete';

/** The provisioning client a request comes from: its name is the actor the activity log shows. */
export type ScimClient = Pick<ScimTokenRow, 'id' | 'name' | 'createdBy'>;

/**
 * The handlers of one resource type. scimmy keeps one set per process for each type, so the ones
 * it holds only pass each call on to these, which the request's context carries.
 */
export interface ResourceHandlers {
  egress(resource: SCIMMY.Types.Resource, ctx: ScimContext): Promise<Record<string, unknown> | Record<string, unknown>[]>;
  ingress(resource: SCIMMY.Types.Resource, data: Record<string, unknown>, ctx: ScimContext): Promise<Record<string, unknown>>;
  degress(resource: SCIMMY.Types.Resource, ctx: ScimContext): Promise<void>;
}

/** One SCIM request's state, passed through scimmy to the handlers. */
export interface ScimContext {
  client: ScimClient;
  mode: ScimMode;
  /** A list's page (startIndex counts from 1); the handler sets how many match in all. */
  page?: { startIndex: number; count: number; total: number };
  /** Whether the Groups read need their members (a list that excludes them reads none). */
  withMembers: boolean;
  /** The resource as it stood before a PATCH's operations. */
  snapshot?: Record<string, unknown>;
  /** The accounts the request deactivated or deleted: the gateway revokes their sessions. */
  revokeUserIds: Set<number>;
  /**
   * A failure that is no client's fault (the database is down, a bug). scimmy answers anything that
   * is not a SCIMError as "404 not found", so the handler keeps it here and the service answers it.
   */
  failure?: unknown;
  handlers: { users: ResourceHandlers; groups: ResourceHandlers };
}

/** The directory's name for a field LWS names in its errors. */
const ATTRIBUTES: Record<string, string> = {
  phone: 'phoneNumbers',
  name: 'displayName',
  username: 'userName',
  externalId: 'externalId',
  teamId: 'members',
  active: 'active',
};

/** The unique indexes a write may run into when another request took the value first. */
const UNIQUE_INDEXES: [string, string][] = [
  ['users_username_unique', 'userName'],
  ['users_external_id_key', 'externalId'],
  ['teams_external_id_key', 'externalId'],
  ['teams_name_lower_key', 'displayName'],
];

const UNIQUENESS = new Set([EXTERNAL_ID_TAKEN, TEAM_NAME_TAKEN]);

/**
 * A refusal by LWS's own rules (an RpcError of the services the handlers call, a unique index) as
 * the SCIM error a client understands; undefined for anything else, which is no client's fault.
 */
export function scimErrorOf(err: unknown): ScimError | undefined {
  if (err instanceof ScimError) return err;
  if (err instanceof RpcError) {
    const attribute = err.field ? ATTRIBUTES[err.field] : undefined;
    const detail = attribute ? `${attribute}: ${err.message}` : err.message;
    if (err.status === 400) return new ScimError(400, 'invalidValue', detail);
    if (err.status === 403 || err.status === 404) return new ScimError(err.status, '', detail);
    if (err.status === 409) return new ScimError(409, UNIQUENESS.has(err.message) ? 'uniqueness' : '', detail);
    return undefined;
  }
  const taken = UNIQUE_INDEXES.find(([index]) => isUniqueViolation(err, index));
  if (taken) return new ScimError(409, 'uniqueness', `${taken[1]} is already another resource's`);
  return undefined;
}

/** Runs a handler, keeping any failure that is no client's fault for the service to answer (see ScimContext.failure). */
export async function guarded<T>(ctx: ScimContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const scim = scimErrorOf(err);
    if (scim) throw scim;
    ctx.failure ??= err;
    throw new ScimError(500, '', 'Internal server error');
  }
}
