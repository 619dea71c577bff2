import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { API_SCOPES } from '@lws/schemas';
import { SESSION_COOKIE } from '../sessions/cookies';
import { buildOpenApiDocument, documentedRoutes, openApiPath } from './document';
import { CONTROLLER_TAGS, ROUTE_DOCS, TAGS } from './route-docs';

interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
  'x-lws-test-only'?: boolean;
  'x-lws-undocumented'?: boolean;
}

const root = resolve(__dirname, '../../../..');
const document = buildOpenApiDocument() as {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, string>> };
};
const routes = documentedRoutes();
const operation = (key: string) => {
  const [method, path] = key.split(' ');
  return document.paths[openApiPath(path)]?.[method.toLowerCase()];
};

describe('the OpenAPI document', () => {
  it('documents every /api route, each with its entry in ROUTE_DOCS and its feature tag', () => {
    expect(routes.length).toBeGreaterThan(90);
    expect(routes.filter((r) => !ROUTE_DOCS[r.key]).map((r) => r.key)).toEqual([]);
    expect(routes.filter((r) => !CONTROLLER_TAGS[r.controller.name]).map((r) => r.controller.name)).toEqual([]);
    expect(routes.filter((r) => !operation(r.key)).map((r) => r.key)).toEqual([]);
  });

  it('has no ROUTE_DOCS entry for a route the gateway does not have', () => {
    const keys = new Set(routes.map((r) => r.key));
    expect(Object.keys(ROUTE_DOCS).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('names each operation once, with a declared tag, a summary and a success answer', () => {
    const operations = Object.values(document.paths).flatMap((ops) => Object.values(ops));
    const ids = operations.map((o) => o.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const op of operations) {
      expect(op.tags.every((t) => t in TAGS)).toBe(true);
      expect(op['x-lws-undocumented']).toBeUndefined();
      expect(Object.keys(op.responses).some((s) => /^[23]\d\d$/.test(s))).toBe(true);
    }
  });

  it('declares the session cookie by its real name, and API tokens as bearer tokens', () => {
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE });
    expect(document.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('opens public routes to anyone, and lists a token scope beside the session where a route takes one', () => {
    for (const route of routes) {
      const op = operation(route.key);
      if (route.isPublic) expect({ key: route.key, security: op.security }).toEqual({ key: route.key, security: [] });
      else if (route.tokenScope) {
        expect(API_SCOPES).toContain(route.tokenScope);
        expect({ key: route.key, security: op.security }).toEqual({
          key: route.key,
          security: [{ sessionCookie: [] }, { apiToken: [route.tokenScope] }],
        });
      } else expect({ key: route.key, security: op.security }).toEqual({ key: route.key, security: undefined });
    }
    expect(operation('GET /api/openapi.json').security).toEqual([]);
    expect(operation('POST /api/auth/login').security).toEqual([]);
  });

  it('flags the routes only the test clock brings', () => {
    const flagged = routes.filter((r) => operation(r.key)['x-lws-test-only']).map((r) => r.key);
    expect(flagged.sort()).toEqual(['GET /api/test-clock', 'POST /api/test-clock']);
  });

  it('passes redocly lint with the committed configuration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lws-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const cli = require.resolve('@redocly/cli/bin/cli.js');
      const run = spawnSync(process.execPath, [cli, 'lint', '--config', join(root, 'redocly.yaml'), '--format', 'stylish', file], {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        timeout: 120_000,
      });
      expect({ status: run.status, output: `${run.stdout}${run.stderr}` }).toEqual({ status: 0, output: expect.any(String) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
