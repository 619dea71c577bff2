import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import SCIMMY from 'scimmy';
import type { CommandMap } from '@lws/contracts';
import { isInfrastructureFailure } from '@lws/messaging';
import { LOGGER, type Logger } from '@lws/platform';
import { normalisePatch, normaliseResource, parseBody } from './dialect';
import { ScimError, type ScimClient, type ScimContext, type ScimMode } from './scim-context';
import { declareScimResources, MAX_RESULTS, SCIM_BASE_PATH } from './scim-resources';
import { ScimGroups } from './scim-groups';
import { ScimTokensService } from './scim-tokens.service';
import { ScimUsers } from './scim-users';

type ScimRequest = CommandMap['identity.scim.request.v1']['request'];
type ScimResponse = CommandMap['identity.scim.request.v1']['reply'];
type ResourceClass = typeof SCIMMY.Resources.User | typeof SCIMMY.Resources.Group;

const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
/** A list's page when the client names none. */
const DEFAULT_COUNT = 100;

interface Outcome {
  status: number;
  body?: unknown;
  location?: string;
}

/** A SCIM error body: scimmy's, or for a status scimmy does not speak (503) the same shape by hand. */
function errorBody(status: number, detail: string, scimType?: string): unknown {
  try {
    return new SCIMMY.Messages.ErrorResponse({ status, ...(scimType ? { scimType } : {}), detail } as never);
  } catch {
    return { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
  }
}

/** The query's parameters scimmy reads; others (Entra ID's aadOptscim062020, sortBy: sort is off) are ignored. */
function queryOf(raw: string) {
  const params = new URLSearchParams(raw);
  const integer = (name: string): number | undefined => {
    const value = params.get(name);
    if (value === null || value.trim() === '') return undefined;
    if (!/^-?\d{1,10}$/.test(value.trim())) throw new ScimError(400, 'invalidValue', `${name} must be an integer`);
    return Number(value);
  };
  const text = (name: string) => params.get(name) ?? undefined;
  return {
    filter: text('filter'),
    attributes: text('attributes'),
    excludedAttributes: text('excludedAttributes'),
    startIndex: Math.max(integer('startIndex') ?? 1, 1),
    count: Math.min(Math.max(integer('count') ?? DEFAULT_COUNT, 0), MAX_RESULTS),
  };
}
type Query = ReturnType<typeof queryOf>;

/** Whether a Group's members are wanted, by the request's attributes / excludedAttributes. */
function membersWanted(query: Query): boolean {
  const names = (list?: string) =>
    (list ?? '').split(',').map((a) =>
      a
        .trim()
        .toLowerCase()
        .replace(/^urn:.*:/, ''),
    );
  if (query.attributes !== undefined) return names(query.attributes).some((a) => a === 'members' || a.startsWith('members.'));
  return !names(query.excludedAttributes).includes('members');
}

/** The path's parts, decoded; a SCIM 404 for one that cannot be. */
function segmentsOf(path: string): string[] {
  try {
    return path
      .split('/')
      .filter((s) => s.length > 0)
      .map((s) => decodeURIComponent(s));
  } catch {
    throw new ScimError(404, '', 'No such resource');
  }
}

/** Resource locations under `baseUrl` (what the gateway was reached on) instead of the bare base path. */
function located(body: unknown, baseUrl: string | undefined): unknown {
  if (!baseUrl) return body;
  const json = JSON.parse(JSON.stringify(body)) as { meta?: { location?: unknown }; Resources?: { meta?: { location?: unknown } }[] };
  for (const resource of [json, ...(Array.isArray(json.Resources) ? json.Resources : [])]) {
    const location = resource?.meta?.location;
    if (typeof location === 'string' && location.startsWith(SCIM_BASE_PATH)) {
      resource.meta!.location = `${baseUrl.replace(/\/+$/, '')}${location.slice(SCIM_BASE_PATH.length)}`;
    }
  }
  return json;
}

/**
 * One SCIM request, from bearer token to answer. scimmy reads filters, PatchOps and resources and
 * writes resources, lists and errors; the handlers (ScimUsers, ScimGroups) apply changes through
 * the services the screens use, so the same rules hold and the same events are heard, with the
 * provisioning client named on each. Every answer is a SCIM response, a refusal too; the accounts
 * the request deactivated or deleted go back with it so the gateway signs them out.
 */
@Injectable()
export class ScimService implements OnModuleInit {
  constructor(
    private readonly tokens: ScimTokensService,
    private readonly users: ScimUsers,
    private readonly groups: ScimGroups,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    declareScimResources();
  }

  async handle(req: ScimRequest): Promise<ScimResponse> {
    const client = await this.tokens.authenticate(req.token);
    if (!client) return this.answer({ status: 401, body: errorBody(401, 'The bearer token is unknown or has been revoked') }, [], req);
    const ctx: ScimContext = {
      client,
      mode: 'read',
      withMembers: true,
      revokeUserIds: new Set(),
      handlers: { users: this.users, groups: this.groups },
    };
    let outcome: Outcome;
    try {
      outcome = await this.dispatch(req, ctx);
    } catch (err) {
      outcome = this.refusal(err, ctx, req, client);
    }
    return this.answer(outcome, [...ctx.revokeUserIds], req);
  }

  private answer(outcome: Outcome, revokeUserIds: number[], req: ScimRequest): ScimResponse {
    const body = outcome.body === undefined ? undefined : JSON.stringify(located(outcome.body, req.baseUrl));
    const base = req.baseUrl?.replace(/\/+$/, '');
    const location =
      outcome.location && base && outcome.location.startsWith(SCIM_BASE_PATH)
        ? base + outcome.location.slice(SCIM_BASE_PATH.length)
        : outcome.location;
    return {
      status: outcome.status,
      ...(body !== undefined ? { body } : {}),
      ...(location ? { location } : {}),
      revokeUserIds: revokeUserIds.sort((a, b) => a - b),
    };
  }

  /** What went wrong as a SCIM error: the client's mistakes as scimmy words them; anything else logged and answered 500 (503 when it heals). */
  private refusal(err: unknown, ctx: ScimContext, req: ScimRequest, client: ScimClient): Outcome {
    const failure = ctx.failure;
    if (failure !== undefined) {
      if (isInfrastructureFailure(failure)) {
        this.logger.warn(
          { error: failure instanceof Error ? failure.message : String(failure) },
          'SCIM request refused: a dependency is unavailable',
        );
        return { status: 503, body: errorBody(503, 'Temporarily unavailable: try again shortly') };
      }
      this.logger.error({ err: failure, method: req.method, path: req.path, client: client.name }, 'SCIM request failed');
      return { status: 500, body: errorBody(500, 'Internal server error') };
    }
    if (err instanceof ScimError) return { status: err.status, body: errorBody(err.status, err.message, err.scimType || undefined) };
    if (err instanceof TypeError) {
      // scimmy refuses some malformed input with a TypeError of its own (a filter object, a value of the wrong shape).
      this.logger.info({ error: err.message, method: req.method, path: req.path }, 'SCIM request refused');
      return { status: 400, body: errorBody(400, err.message, 'invalidValue') };
    }
    if (isInfrastructureFailure(err)) return { status: 503, body: errorBody(503, 'Temporarily unavailable: try again shortly') };
    this.logger.error({ err, method: req.method, path: req.path, client: client.name }, 'SCIM request failed');
    return { status: 500, body: errorBody(500, 'Internal server error') };
  }

  private async dispatch(req: ScimRequest, ctx: ScimContext): Promise<Outcome> {
    const [endpoint, id, ...rest] = segmentsOf(req.path);
    if (rest.length > 0 || endpoint === undefined) throw new ScimError(404, '', 'No such resource');
    const query = queryOf(req.query);
    const body = req.body === undefined || req.body.trim() === '' ? undefined : parseBody(req.body);
    switch (endpoint.toLowerCase()) {
      case 'serviceproviderconfig':
        this.only(req, ['GET'], id === undefined);
        return { status: 200, body: await new SCIMMY.Resources.ServiceProviderConfig().read() };
      case 'resourcetypes':
        this.only(req, ['GET'], true);
        return { status: 200, body: await new SCIMMY.Resources.ResourceType(id).read() };
      case 'schemas':
        this.only(req, ['GET'], true);
        return { status: 200, body: await new SCIMMY.Resources.Schema(id).read() };
      case 'users':
        return this.resource(SCIMMY.Resources.User, req, id, query, body, ctx);
      case 'groups':
        return this.resource(SCIMMY.Resources.Group, req, id, query, body, ctx);
      case 'bulk':
      case 'me':
        throw new ScimError(501, '', `/${endpoint} is not supported`);
      default:
        throw new ScimError(404, '', 'No such resource');
    }
  }

  private only(req: ScimRequest, methods: string[], shapeOk: boolean): void {
    if (!shapeOk) throw new ScimError(404, '', 'No such resource');
    if (!methods.includes(req.method)) throw new ScimError(501, '', `${req.method} is not supported on ${req.path}`);
  }

  private async resource(
    Resource: ResourceClass,
    req: ScimRequest,
    id: string | undefined,
    query: Query,
    body: unknown,
    ctx: ScimContext,
  ): Promise<Outcome> {
    const writing = (mode: ScimMode) => {
      ctx.mode = mode;
      // A write answers with the whole resource: attributes parameters only shape what is read.
      ctx.withMembers = true;
    };
    if (id === '.search') throw new ScimError(501, '', 'POST .search is not supported: use GET with a filter');
    if (id === undefined) {
      if (req.method === 'GET') return this.list(Resource, query, ctx);
      if (req.method !== 'POST') throw new ScimError(404, '', `${req.method} must name a resource: ${req.path}/{id}`);
      writing('create');
      const created = (await new Resource().write(normaliseResource(body), ctx)) as { meta?: { location?: string } };
      return { status: 201, body: created, location: created.meta?.location };
    }
    switch (req.method) {
      case 'GET': {
        ctx.withMembers = membersWanted(query);
        const found = await new Resource(id, {
          ...(query.attributes ? { attributes: query.attributes } : {}),
          ...(query.excludedAttributes ? { excludedAttributes: query.excludedAttributes } : {}),
        }).read(ctx);
        return { status: 200, body: found };
      }
      case 'PUT':
        writing('replace');
        return { status: 200, body: await new Resource(id).write(normaliseResource(body), ctx) };
      case 'PATCH':
        return this.patch(Resource, id, body, ctx, writing);
      case 'DELETE':
        writing('delete');
        await new Resource(id).dispose(ctx);
        return { status: 204 };
      default:
        throw new ScimError(404, '', `${req.method} does not apply to ${req.path}`);
    }
  }

  /**
   * scimmy's Resource.patch, with the operations read against the resource as it stands (Entra ID's
   * filtered paths that match nothing yet). An operation that changes nothing answers 204.
   */
  private async patch(Resource: ResourceClass, id: string, body: unknown, ctx: ScimContext, writing: (mode: ScimMode) => void) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ScimError(400, 'invalidSyntax', 'PATCH expects a PatchOp message');
    }
    // A malformed message is refused before anything is read (the filtered paths aside, it says all).
    new SCIMMY.Messages.PatchOp(normalisePatch(body, {}) as never);
    writing('patch');
    const resource = new Resource(id);
    const current = (await resource.read(ctx)) as SCIMMY.Types.Schema;
    const message = normalisePatch(body, JSON.parse(JSON.stringify(current)) as Record<string, unknown>);
    const patched = await new SCIMMY.Messages.PatchOp(message as never).apply(current, async (instance) => resource.write(instance, ctx));
    return patched ? { status: 200, body: patched } : { status: 204 };
  }

  /**
   * A page of a list. scimmy's ListResponse pages an array it holds whole; LWS reads only the page,
   * so the handler returns that and sets the total, and the response says where the page starts.
   */
  private async list(Resource: ResourceClass, query: Query, ctx: ScimContext): Promise<Outcome> {
    ctx.withMembers = membersWanted(query);
    ctx.page = { startIndex: query.startIndex, count: query.count, total: 0 };
    const resource = new Resource(undefined, {
      ...(query.filter !== undefined ? { filter: query.filter } : {}),
      ...(query.attributes ? { attributes: query.attributes } : {}),
      ...(query.excludedAttributes ? { excludedAttributes: query.excludedAttributes } : {}),
    });
    // The page handed to scimmy starts at 1: it must neither skip into it nor cut it.
    resource.constraints = { startIndex: 1, count: query.count };
    const list = (await resource.read(ctx)) as SCIMMY.Messages.ListResponse;
    list.startIndex = query.startIndex;
    list.totalResults = ctx.page.total;
    list.itemsPerPage = list.Resources.length;
    return { status: 200, body: list };
  }
}
