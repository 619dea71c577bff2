import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { z } from 'zod';
import { bodySchemas, buildOpenApiDocument, camelCaseKeys, documentedRoutes, openApiPath, querySchema } from '@lws/gateway';
import { sample } from './fuzzer';

/**
 * The OpenAPI document and the gateway's zod schemas are two validators of the same requests: a
 * client that trusts the document must be neither refused by the gateway nor told something goes
 * that the gateway refuses. For every documented body and query, the fuzzer's valid request is
 * accepted by both; for every body, one that lacks a required field or carries one the route
 * does not take is refused by both.
 */

type Json = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema: Json }[];
  requestBody?: { content: Record<string, { schema: Json }> };
}

const document = buildOpenApiDocument() as { paths: Record<string, Record<string, Operation>> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, 'openapi');
const queryAjv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true });
addFormats(queryAjv);

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const ids = { ids: { worker: 7, admin: 8, superadmin: 9 } };

/**
 * Values the fuzzer's table lacks for some fields: each is what a client would send. A sample that
 * zod still refuses fails the test below, naming the field to add here.
 */
const VALID: Record<string, unknown> = {
  duressPin: '5678',
  from: '+447911123456',
  body: 'PIN 1234',
  text: 'Police attending',
  teamId: 3,
  monitorTeamIds: [3],
  locationIds: [1],
  until: '2030-01-01T09:00:00.000Z',
  digits: '1',
  minutes: 15,
  answerWithinMinutes: 5,
  expiresInDays: 30,
  scopes: ['alarms:read'],
  checkInPolicy: { defaultInterval: 60, allowedIntervals: [60, 120] },
  emailDomains: ['example.com'],
  language: 'en',
  madeAt: '2026-01-31T14:03:00.000Z',
  escalationPolicy: null,
  groupTeams: [{ group: 'lws-monitors', teamId: 3 }],
  url: 'https://arc.example.com/lws',
  eventTypes: ['alarm.opened'],
  schedule: { timeZone: 'Europe/London', layers: [{ name: 'Days', start: '2026-12-07T08:00', rotation: 'weekly', userIds: [2] }] },
  start: '2030-01-12T08:00:00Z',
  end: '2030-01-12T20:00:00Z',
};

/** Query values: a query carries text, and the fuzzer's samples are for bodies. */
const QUERY_VALUES: Record<string, string> = {
  limit: '10',
  cursor: 'c1',
  userId: '7',
  open: 'false',
  dryRun: 'true',
  next: '/admin',
  month: '2026-01',
  teamId: '3',
  lastEventId: 'abc-12',
  at: '2030-01-01T02:00:00Z',
  from: '2030-01-01T00:00:00Z',
  to: '2030-01-08T00:00:00Z',
};

const unwrap = (s: z.ZodTypeAny): z.ZodTypeAny => {
  const def = s._def as { innerType?: z.ZodTypeAny; schema?: z.ZodTypeAny };
  return def.innerType ? unwrap(def.innerType) : def.schema ? unwrap(def.schema) : s;
};
const shapeOf = (s: z.ZodTypeAny) => (unwrap(s) as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
const optional = (f: z.ZodTypeAny) => f.safeParse(undefined).success;

/** The fuzzer's valid body for the schema, with VALID's values where its own are not valid. */
function validBody(schema: z.ZodTypeAny): Json {
  const body = sample(schema, '', ids, 'worker', 1) as Json;
  for (let round = 0; round < 5; round++) {
    const result = schema.safeParse(body);
    if (result.success) return body;
    for (const issue of result.error.issues) {
      if (issue.path.length === 0) {
        // A rule across fields (one of two, not both): the fuzzer filled every field; send fewer.
        const dropped = Object.keys(body).find((k) => optional(shapeOf(schema)[k]));
        if (dropped) delete body[dropped];
        continue;
      }
      const field = String(issue.path[0]);
      if (!(field in VALID)) throw new Error(`no valid sample for "${field}" (${issue.message}): add one to VALID`);
      body[field] = VALID[field];
    }
  }
  return body;
}

const minimal = (schema: z.ZodTypeAny, body: Json): Json =>
  Object.fromEntries(Object.entries(body).filter(([k]) => !shapeOf(schema)[k] || !optional(shapeOf(schema)[k])));

const routes = documentedRoutes();
const withBodies = routes.filter((r) => bodySchemas(r.key).length > 0);
const withQueries = routes.filter((r) => querySchema(r.key));

describe('the OpenAPI document and the zod schemas agree', () => {
  it('covers the routes with bodies and queries', () => {
    expect(withBodies.length).toBeGreaterThan(30);
    expect(withQueries.length).toBeGreaterThan(8);
  });

  describe.each(withBodies.map((r) => [r.key, r] as const))('body of %s', (_key, route) => {
    const schemas = bodySchemas(route.key);
    const op = document.paths[openApiPath(route.path)][route.method.toLowerCase()];
    const validate = ajv.getSchema(
      `openapi#/${pointer('paths', openApiPath(route.path), route.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema')}`,
    )!;
    const zodAccepts = (body: Json) => schemas.some((s) => s.safeParse(camelCaseKeys(body)).success);
    const documentAccepts = (body: Json) => validate(body) === true;

    it('is a JSON body in the document', () => {
      expect(op.requestBody?.content['application/json']).toBeDefined();
      expect(validate).toBeDefined();
    });

    it.each(schemas.map((s, i) => [i, s] as const))(
      'alternative %i: a valid body is accepted by both, with and without its optional fields',
      (_i, schema) => {
        const body = validBody(schema);
        // Without its optional fields when the schema allows that (some need one of them).
        for (const b of [body, minimal(schema, body)].filter((b) => schema.safeParse(b).success)) {
          expect({ body: b, zod: zodAccepts(b) }).toEqual({ body: b, zod: true });
          expect({ body: b, document: documentAccepts(b), errors: validate.errors ?? null }).toEqual({
            body: b,
            document: true,
            errors: null,
          });
        }
      },
    );

    it.each(schemas.map((s, i) => [i, s] as const))('alternative %i: a body without a required field is refused by both', (_i, schema) => {
      const body = validBody(schema);
      const required = Object.entries(shapeOf(schema))
        .filter(([, f]) => !optional(f))
        .map(([k]) => k);
      for (const field of required) {
        const { [field]: _left, ...rest } = body;
        expect({ without: field, zod: zodAccepts(rest), document: documentAccepts(rest) }).toEqual({
          without: field,
          zod: false,
          document: false,
        });
      }
    });

    it.each(schemas.map((s, i) => [i, s] as const))(
      'alternative %i: a body with a field the route does not take is refused by both',
      (_i, schema) => {
        for (const extra of ['isAdmin', 'role', 'pinHash']) {
          if (extra in shapeOf(schema)) continue;
          const body = { ...validBody(schema), [extra]: true };
          expect({ extra, zod: zodAccepts(body), document: documentAccepts(body) }).toEqual({ extra, zod: false, document: false });
        }
      },
    );
  });

  describe.each(withQueries.map((r) => [r.key, r] as const))('query of %s', (_key, route) => {
    const schema = querySchema(route.key)!;
    const op = document.paths[openApiPath(route.path)][route.method.toLowerCase()];
    const params = (op.parameters ?? []).filter((p) => p.in === 'query');
    // OpenAPI lists a query's parameters one by one, typed as what the text stands for (an id is an
    // integer): validators of the document read "7" as 7, as coerceTypes does.
    const validate = queryAjv.compile({
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
      required: params.filter((p) => p.required).map((p) => p.name),
    });

    it('lists every field of the schema as a query parameter', () => {
      expect(params.map((p) => p.name).sort()).toEqual(Object.keys(schema.shape).sort());
    });

    it('accepts a valid query by both, with and without its optional fields', () => {
      const query = Object.fromEntries(
        Object.keys(schema.shape).map((k) => [k, QUERY_VALUES[k] ?? sample(schema.shape[k], k, ids, 'worker', 1)]),
      );
      for (const q of [query, minimal(schema, query)]) {
        expect({ query: q, zod: schema.safeParse(camelCaseKeys(q)).success }).toEqual({ query: q, zod: true });
        expect({ query: q, document: validate(q), errors: validate.errors ?? null }).toEqual({ query: q, document: true, errors: null });
      }
    });

    it('refuses a query without a required parameter by both', () => {
      const query = Object.fromEntries(
        Object.keys(schema.shape).map((k) => [k, QUERY_VALUES[k] ?? sample(schema.shape[k], k, ids, 'worker', 1)]),
      );
      for (const p of params.filter((x) => x.required)) {
        const { [p.name]: _left, ...rest } = query;
        expect({ without: p.name, zod: schema.safeParse(rest).success, document: validate(rest) }).toEqual({
          without: p.name,
          zod: false,
          document: false,
        });
      }
    });
  });
});
