import 'reflect-metadata';
import { type DynamicModule, type PipeTransform, RequestMethod, type Type } from '@nestjs/common';
import {
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  MODULE_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { TOKEN_SCOPE } from '../api-tokens/token-scope';
import { PUBLIC, ROLES, type Role } from '../common/session.guard';

/** One route as Nest mounts it on Express, with what its decorators say about it. */
export interface RouteInfo {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As Express routes it: `/api/users/:id`. */
  path: string;
  /** `METHOD /path`, the key of EDGE_BODIES, EDGE_QUERIES and ROUTE_DOCS. */
  key: string;
  controller: Type;
  handler: string;
  /** The feature module that declares the controller; undefined for the app's own controllers. */
  module?: Type;
  isPublic: boolean;
  roles?: Role[];
  /** The scope an API token needs here; none: people only. */
  tokenScope?: string;
  /** What Nest answers on success unless the handler writes its own status. */
  status: number;
  /** Headers set by @Header(), lower-cased names. */
  headers: Record<string, string>;
  /** Path parameters in order, with the pipes each is read through. */
  params: { name: string; pipes: PipeTransform[] }[];
}

const METHODS: Partial<Record<RequestMethod, RouteInfo['method']>> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.PATCH]: 'PATCH',
  [RequestMethod.DELETE]: 'DELETE',
};

const asList = (v: unknown): string[] => (Array.isArray(v) ? v : [v ?? '']).map(String);

/** Nest's own joining (RoutePathFactory): one leading slash per part, none trailing. */
function joinPath(controllerPath: string, methodPath: string): string {
  const part = (p: string) => (p && !p.startsWith('/') ? `/${p}` : p).replace(/\/+$/, '');
  return `${part(controllerPath)}${part(methodPath)}`.replace(/\/{2,}/g, '/') || '/';
}

/** The controllers of a module and of the modules it imports, each with the feature module it came from. */
function controllersOf(entry: Type | DynamicModule, seen = new Set<unknown>()): { controller: Type; module: Type }[] {
  const module = 'module' in entry ? entry.module : entry;
  if (seen.has(entry)) return [];
  seen.add(entry);
  const own: Type[] = [
    ...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) as Type[] | undefined) ?? []),
    ...('module' in entry ? (entry.controllers ?? []) : []),
  ];
  const imported = [
    ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, module) as (Type | DynamicModule)[] | undefined) ?? []),
    ...('module' in entry ? ((entry.imports ?? []) as (Type | DynamicModule)[]) : []),
  ];
  return [...own.map((controller) => ({ controller, module })), ...imported.flatMap((m) => controllersOf(m, seen))];
}

function routesOf(controller: Type, module: Type | undefined): RouteInfo[] {
  const proto = controller.prototype as Record<string, unknown>;
  const classPublic = Reflect.getMetadata(PUBLIC, controller) === true;
  const classRoles = Reflect.getMetadata(ROLES, controller) as Role[] | undefined;
  const classScope = Reflect.getMetadata(TOKEN_SCOPE, controller) as string | undefined;
  const args = (name: string) =>
    (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { data?: unknown; pipes?: PipeTransform[] }>;
  return Object.getOwnPropertyNames(proto).flatMap((name) => {
    const handler = proto[name];
    if (name === 'constructor' || typeof handler !== 'function') return [];
    const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    const methodPaths = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
    if (requestMethod === undefined || methodPaths === undefined) return [];
    const method = METHODS[requestMethod];
    if (!method) throw new Error(`${controller.name}.${name}: no OpenAPI method for Nest's RequestMethod ${requestMethod}`);
    const headers = Object.fromEntries(
      ((Reflect.getMetadata(HEADERS_METADATA, handler) as { name: string; value: string }[] | undefined) ?? []).map((h) => [
        h.name.toLowerCase(),
        h.value,
      ]),
    );
    const roles = (Reflect.getMetadata(ROLES, handler) as Role[] | undefined) ?? classRoles;
    const tokenScope = (Reflect.getMetadata(TOKEN_SCOPE, handler) as string | undefined) ?? classScope;
    const routeArgs = Object.entries(args(name))
      .filter(([key]) => key.split(':')[0] === String(RouteParamtypes.PARAM))
      .map(([, a]) => a);
    return asList(Reflect.getMetadata(PATH_METADATA, controller)).flatMap((base) =>
      asList(methodPaths).map((sub): RouteInfo => {
        const path = joinPath(base, sub);
        return {
          method,
          path,
          key: `${method} ${path}`,
          controller,
          handler: name,
          ...(module ? { module } : {}),
          isPublic: classPublic || Reflect.getMetadata(PUBLIC, handler) === true,
          ...(roles ? { roles } : {}),
          ...(tokenScope ? { tokenScope } : {}),
          status: (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? (method === 'POST' ? 201 : 200),
          headers,
          params: [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, param]) => ({
            name: param,
            pipes: routeArgs.filter((a) => a.data === param).flatMap((a) => a.pipes ?? []),
          })),
        };
      }),
    );
  });
}

/** Every route of these modules and controllers, in the order Nest registers them. */
export function walkRoutes(modules: (Type | DynamicModule)[], rootControllers: Type[]): RouteInfo[] {
  const seen = new Set<unknown>();
  return [
    ...modules.flatMap((m) => controllersOf(m, seen)).flatMap(({ controller, module }) => routesOf(controller, module)),
    ...rootControllers.flatMap((c) => routesOf(c, undefined)),
  ];
}
