import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';

export const REMOTE_NAMES = ['worker', 'admin', 'superadmin', 'kiosk'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** A remote that neither loads nor fails within this time is treated as down. */
export const REMOTE_LOAD_TIMEOUT_MS = 20_000;

type RemoteManifests = Partial<Record<RemoteName, string>>;

let manifestsPromise: Promise<RemoteManifests> | null = null;

async function fetchManifests(): Promise<RemoteManifests> {
  const response = await fetch('/config.json', { cache: 'no-store', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`Runtime configuration unavailable: ${response.status}`);
  const body: unknown = await response.json();
  const remotes = (body as { remotes?: unknown } | null)?.remotes;
  if (!remotes || typeof remotes !== 'object') throw new Error('Runtime configuration has no "remotes" map');
  const manifests: RemoteManifests = {};
  for (const name of REMOTE_NAMES) {
    const url = (remotes as Record<string, unknown>)[name];
    if (typeof url === 'string' && url) manifests[name] = url;
  }
  return manifests;
}

/** Remote locations come from /config.json at runtime, so one shell build serves every deployment. */
function remoteManifests(): Promise<RemoteManifests> {
  manifestsPromise ??= fetchManifests().catch((error: unknown) => {
    manifestsPromise = null;
    throw error;
  });
  return manifestsPromise;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not load within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

type RemoteModule = { default: ComponentType };

async function loadRemoteApp(name: RemoteName, afterFailure: boolean): Promise<RemoteModule> {
  const manifests = await remoteManifests();
  const entry = manifests[name];
  if (!entry) throw new Error(`No manifest configured for remote "${name}"`);
  // After a failure the runtime still caches the broken manifest and script;
  // re-registering with force drops them so the retry really fetches again.
  registerRemotes([{ name: `lws_${name}`, entry }], { force: afterFailure });
  const module = await withTimeout(loadRemote<RemoteModule>(`lws_${name}/App`), REMOTE_LOAD_TIMEOUT_MS, `Remote "${name}"`);
  if (!module || typeof module.default !== 'function') throw new Error(`Remote "${name}" exposes no component`);
  return module;
}

const components = new Map<RemoteName, LazyExoticComponent<ComponentType>>();
const failed = new Set<RemoteName>();

/** One lazy component per remote, kept across visits so returning to a page does not flash a loader. */
export function remoteComponent(name: RemoteName): LazyExoticComponent<ComponentType> {
  let component = components.get(name);
  if (!component) {
    const afterFailure = failed.has(name);
    component = lazy(() => loadRemoteApp(name, afterFailure));
    components.set(name, component);
  }
  return component;
}

/** Forgets a failed remote so that the next render loads it afresh. */
export function markRemoteFailed(name: RemoteName): void {
  failed.add(name);
  components.delete(name);
}
