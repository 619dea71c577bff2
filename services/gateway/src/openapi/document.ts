import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { PipeTransform } from '@nestjs/common';
import { z } from 'zod';
import { EDGE_BODIES, EDGE_QUERIES } from '../common/edge-schemas';
import { SESSION_COOKIE } from '../sessions/cookies';
import { featureModules, ROOT_CONTROLLERS } from '../routes';
import * as responses from './responses';
import { CONTROLLER_TAGS, ERROR_STATUSES, PARAMETER_TEXT, ROUTE_DOCS, TAGS, type ErrorStatus, type RouteDoc } from './route-docs';
import { type RouteInfo, walkRoutes } from './route-walk';

/** Where the build writes the document: services/gateway/dist/openapi.json. */
export const DOCUMENT_FILE = join(__dirname, '..', 'openapi.json');

/** A documented route: an `/api` route the gateway serves, and whether only the test clock brings it. */
export interface DocumentedRoute extends RouteInfo {
  testOnly: boolean;
}

const API = /^\/api(\/|$)/;

/** Every `/api` route of the gateway, the test clock's too (flagged), in the order Nest mounts them. */
export function documentedRoutes(): DocumentedRoute[] {
  const everyRoute = walkRoutes(featureModules({ testClock: true }), ROOT_CONTROLLERS);
  const always = new Set(walkRoutes(featureModules({ testClock: false }), ROOT_CONTROLLERS).map((r) => r.key));
  return everyRoute.filter((r) => API.test(r.path)).map((r) => ({ ...r, testOnly: !always.has(r.key) }));
}

/** `/api/users/:id` as OpenAPI writes it: `/api/users/{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const MAX_ID = 2147483647;
const positiveId = z.number().int().min(1).max(MAX_ID);

const A_UUID = '00000000-0000-4000-8000-000000000000';

/** Whether the pipe lets the value through (a pipe refuses by throwing, a 400). */
function accepts(pipe: PipeTransform, value: string): boolean {
  try {
    pipe.transform(value, { type: 'param' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A path parameter's schema: the route doc's, else what its pipes accept (asked of the pipes
 * themselves: a positive 32-bit id, or a UUID), else any text.
 */
function paramSchema(route: RouteInfo, name: string, doc: RouteDoc | undefined): z.ZodTypeAny {
  const own = doc?.params?.[name];
  if (own) return own;
  const pipes = route.params.find((p) => p.name === name)?.pipes ?? [];
  if (pipes.length === 0) return z.string();
  const all = (check: (p: PipeTransform) => boolean) => pipes.every(check);
  if (all((p) => accepts(p, '1') && accepts(p, String(MAX_ID)) && !accepts(p, '0') && !accepts(p, String(MAX_ID + 1)))) {
    const message = pipes.map((p) => (p as { message?: unknown }).message).find((m) => typeof m === 'string');
    return positiveId.describe(message ? `The ${message.replace(/^Invalid /, '')}` : 'A positive whole number');
  }
  if (all((p) => accepts(p, A_UUID) && !accepts(p, '1'))) return z.string().uuid().describe('A UUID');
  return z.string();
}

/** The message a field's first check gives when it fails: it says what the field takes. */
function ruleOf(field: z.ZodTypeAny): string | undefined {
  const def = field._def as {
    typeName: string;
    innerType?: z.ZodTypeAny;
    schema?: z.ZodTypeAny;
    in?: z.ZodTypeAny;
    checks?: { message?: string }[];
    errorMap?: z.ZodErrorMap;
  };
  const inner = def.innerType ?? def.schema ?? def.in;
  if (inner) return ruleOf(inner);
  const checked = def.checks?.find((c) => c.message)?.message;
  if (checked) return checked;
  return (
    def.errorMap?.(
      { code: 'invalid_type', expected: 'string', received: 'undefined', path: [], message: '' },
      { defaultError: '', data: undefined },
    ).message || undefined
  );
}

/** Each field described (the document lists them as parameters): its own words, else PARAMETER_TEXT's, else its rule. */
function described<S extends z.AnyZodObject>(schema: S): S {
  const shape = schema.shape as Record<string, z.ZodTypeAny>;
  const text = (name: string, field: z.ZodTypeAny) => PARAMETER_TEXT[name] ?? ruleOf(field);
  const missing = Object.entries(shape).filter(([k, f]) => !f.description && text(k, f));
  if (missing.length === 0) return schema;
  return schema.extend(Object.fromEntries(missing.map(([k, f]) => [k, f.describe(text(k, f)!)]))) as S;
}

/** The schemas a route's body may take: several alternatives are `oneOf` (each refuses the others' fields). */
export function bodySchemas(key: string): z.ZodTypeAny[] {
  return EDGE_BODIES[key] ?? [];
}

/** The query a route reads, when it reads one. */
export function querySchema(key: string): z.AnyZodObject | undefined {
  let schema: z.ZodTypeAny | undefined = ROUTE_DOCS[key]?.query ?? EDGE_QUERIES[key];
  // A query whose fields are checked together (from before to) is an object under its refinements
  // (by the def's name: @lws/schemas may hold another copy of zod than this file's).
  while (schema?._def.typeName === 'ZodEffects') schema = (schema as z.ZodEffects<z.ZodTypeAny>).innerType();
  return schema as z.AnyZodObject | undefined;
}

const ERROR_TEXT: Record<ErrorStatus, string> = {
  400: 'The request is malformed or an input is invalid; `field` names it',
  401: 'No session (or API token), or it has ended',
  403: 'Not allowed for this role or token, or refused as a cross-site request',
  404: 'Not found, or not visible to the caller',
  409: 'Conflicts with the current state',
  410: 'Gone: deleted after its retention period',
  413: 'The request body is too large',
  415: 'The body is not of a media type or encoding this route reads',
  422: 'Well formed, but some rows cannot be applied',
  423: 'PIN actions are locked after too many wrong PINs',
  429: 'Too many requests; wait and try again',
  503: 'A service behind the gateway is unavailable; the request did nothing and may be retried',
};

function errorsOf(route: DocumentedRoute, doc: RouteDoc | undefined, hasInput: boolean): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(doc?.errors ?? []);
  if (hasInput) statuses.add(400);
  if (!route.isPublic) {
    statuses.add(401);
    statuses.add(403);
  }
  if (route.params.length > 0) statuses.add(404);
  if (!doc?.static) statuses.add(503);
  return ERROR_STATUSES.filter((s) => statuses.has(s));
}

function accessText(route: DocumentedRoute): string {
  const who = route.isPublic
    ? 'Open to anyone: no session needed.'
    : route.roles
      ? `Roles: ${route.roles.join(', ')}.`
      : 'Any signed-in user.';
  const token = route.tokenScope ? ` An API token with the scope \`${route.tokenScope}\` may call it too.` : '';
  const testOnly = route.testOnly ? ' Served only when the test clock is on (LWS_TEST_CLOCK; never in production).' : '';
  return `${who}${token}${testOnly}`;
}

/** `accounts.list`: the controller (without "Controller"), then the handler. */
function operationId(route: RouteInfo): string {
  const base = route.controller.name.replace(/Controller$/, '');
  return `${base.charAt(0).toLowerCase()}${base.slice(1)}.${route.handler}`;
}

function successResponse(route: DocumentedRoute, doc: RouteDoc | undefined): ResponseConfig {
  const media = doc?.media ?? (route.headers['content-type'] ? route.headers['content-type'].split(';')[0] : 'application/json');
  const schema = doc?.response ?? (media === 'application/json' ? responses.anyObject : z.string());
  return {
    description: doc?.returns ?? 'Done',
    ...(doc?.cursor
      ? {
          headers: {
            'X-Next-Cursor': {
              description: 'Present when more follow: send it back as `cursor` for the next page',
              schema: { type: 'string' },
            },
          },
        }
      : {}),
    ...(doc?.status && doc.status >= 300 && doc.status < 400
      ? {
          headers: {
            Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
          },
        }
      : { content: { [media]: { schema } } }),
  };
}

const ERROR_NAMES: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  423: 'Locked',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
};

function packageVersion(): string {
  const manifest = join(__dirname, '..', '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

const DESCRIPTION = `The HTTP API of LWS, the lone-worker safety platform, as the gateway serves it under \`/api\`.
This document is generated from the schemas the gateway validates every request with, so it cannot
drift from what the gateway accepts.

**Authentication.** Browsers sign in with \`POST /api/auth/login\` and send the \`${SESSION_COOKIE}\`
session cookie. Machines send an API token as \`Authorization: Bearer <token>\` to the routes that
list the \`apiToken\` security scheme, each with the scope it needs.

**CSRF.** A state-changing request (POST, PUT, PATCH, DELETE) made with the session cookie must send
\`X-Requested-With: XMLHttpRequest\`, and is refused when the browser marks it as cross-site.

**Field names.** Bodies and queries are camelCase. Top-level snake_case names (\`user_id\`) are
accepted as aliases; a camelCase name wins when both are sent. A field a route does not take is
refused by name (400), never ignored.

**Errors.** Every error answer is \`{ "message": "...", "field": "..." }\`; \`field\`, when present,
names the input at fault.

**Pages.** Lists that page answer with an \`X-Next-Cursor\` header when more follow.`;

/** The OpenAPI 3.1 document of the gateway's `/api` routes. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.register('Error', responses.errorResponse);
  for (const status of ERROR_STATUSES) {
    registry.registerComponent('responses', ERROR_NAMES[status], {
      description: ERROR_TEXT[status],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
  }
  registry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The session a sign-in opens (`POST /api/auth/login`).',
  });
  registry.registerComponent('securitySchemes', 'apiToken', {
    type: 'http',
    scheme: 'bearer',
    description: "A machine's API token, with the scopes it was created with (`POST /api/api-tokens`).",
  });

  const routes = documentedRoutes();
  for (const route of routes) {
    const doc = ROUTE_DOCS[route.key];
    const bodies = doc?.body ? [] : bodySchemas(route.key);
    const query = querySchema(route.key);
    const params = route.params.map((p) => [p.name, paramSchema(route, p.name, doc)] as const);
    const hasInput = bodies.length > 0 || !!doc?.body || !!query || params.length > 0 || !!doc?.requestHeaders;
    const body =
      bodies.length === 0
        ? undefined
        : {
            required: bodies.every((b) => !b.safeParse({}).success),
            content: { 'application/json': { schema: bodies.length === 1 ? bodies[0] : z.union(bodies as [z.ZodTypeAny, z.ZodTypeAny]) } },
          };
    const status = doc?.status ?? route.status;
    const config: RouteConfig & Record<`x-${string}`, unknown> = {
      method: route.method.toLowerCase() as RouteConfig['method'],
      path: openApiPath(route.path),
      operationId: operationId(route),
      tags: [CONTROLLER_TAGS[route.controller.name] ?? route.controller.name.replace(/Controller$/, '')],
      summary: doc?.summary ?? `${route.key} (undocumented)`,
      description: [doc?.description, accessText(route)].filter(Boolean).join('\n\n'),
      ...(route.isPublic
        ? { security: [] }
        : route.tokenScope
          ? { security: [{ sessionCookie: [] }, { apiToken: [route.tokenScope] }] }
          : {}),
      request: {
        ...(params.length > 0 ? { params: z.object(Object.fromEntries(params)) } : {}),
        ...(query ? { query: described(query) } : {}),
        ...(doc?.requestHeaders ? { headers: described(doc.requestHeaders) } : {}),
        ...(body ? { body } : {}),
        ...(doc?.body
          ? { body: { required: true, description: doc.body.description, content: { [doc.body.media]: { schema: doc.body.schema } } } }
          : {}),
      },
      responses: {
        [String(status)]: successResponse(route, doc),
        ...Object.fromEntries(errorsOf(route, doc, hasInput).map((s) => [String(s), { $ref: `#/components/responses/${ERROR_NAMES[s]}` }])),
      },
      ...(route.roles ? { 'x-lws-roles': route.roles } : {}),
      ...(route.testOnly ? { 'x-lws-test-only': true } : {}),
      ...(doc ? {} : { 'x-lws-undocumented': true }),
    };
    registry.registerPath(config);
  }

  const generated = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'LWS API',
      version: packageVersion(),
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-LWS-Proprietary' },
    },
    servers: [{ url: '/', description: 'This LWS deployment (the gateway)' }],
    security: [{ sessionCookie: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
  }) as unknown as Record<string, unknown>;
  tidySchemas(generated);
  return bodyRules(generated, routes);
}

type Operations = Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>>;

/**
 * What the generator cannot read from the zod schemas, said of each body: alternatives are oneOf
 * (each is strict, so a valid body matches exactly one; zod unions come out as anyOf), and an
 * object whose fields are all optional but that refuses `{}` ("Nothing to update") needs one.
 */
function bodyRules(document: Record<string, unknown>, routes: DocumentedRoute[]): Record<string, unknown> {
  const paths = document.paths as Operations;
  for (const route of routes) {
    const bodies = bodySchemas(route.key);
    const schema = paths[openApiPath(route.path)]?.[route.method.toLowerCase()]?.requestBody?.content['application/json']?.schema;
    if (!schema || bodies.length === 0 || ROUTE_DOCS[route.key]?.body) continue;
    if (Array.isArray(schema.anyOf) && bodies.length > 1) {
      schema.oneOf = schema.anyOf;
      delete schema.anyOf;
    }
    const alternatives = (bodies.length > 1 ? schema.oneOf : [schema]) as Record<string, unknown>[];
    bodies.forEach((body, i) => {
      const alternative = alternatives[i];
      const required = alternative?.required as string[] | undefined;
      if (alternative?.type === 'object' && !required?.length && !body.safeParse({}).success) alternative.minProperties = 1;
    });
  }
  return document;
}

/**
 * Two slips of the generator, mended: a nullable enum comes out as `type: [..., 'null']` with an
 * enum of the values alone (which refuses null after all), and a union with null lists the null
 * twice.
 */
function tidySchemas(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) tidySchemas(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema.type) && schema.type.includes('null') && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...schema.enum, null];
  }
  if (Array.isArray(schema.anyOf)) {
    schema.anyOf = schema.anyOf.filter((s, i, all) => all.findIndex((o) => JSON.stringify(o) === JSON.stringify(s)) === i);
  }
  for (const child of Object.values(schema)) tidySchemas(child);
}

let cached: string | undefined;

/**
 * The document as the gateway serves it: the file the build wrote, else generated once here (the
 * sources run under ts-jest have no build).
 */
export function openApiDocument(): string {
  cached ??= existsSync(DOCUMENT_FILE) ? readFileSync(DOCUMENT_FILE, 'utf8') : `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
  return cached;
}
