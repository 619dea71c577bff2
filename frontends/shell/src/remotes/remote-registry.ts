import type { ComponentType } from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { remoteManifests, type RemoteName } from './runtime-config';

/** A remote that neither loads nor fails within this time is treated as down. */
export const REMOTE_LOAD_TIMEOUT_MS = 20_000;

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

const loaded = new Map<RemoteName, ComponentType>();
const loading = new Map<RemoteName, Promise<ComponentType>>();
const failed = new Set<RemoteName>();

/**
 * A remote's root component once it has loaded, kept across visits so returning to a page does
 * not flash a loader; undefined until then.
 */
export function loadedRemote(name: RemoteName): ComponentType | undefined {
  return loaded.get(name);
}

/** Loads a remote's root component, once: every caller shares the one load in flight. */
export function loadRemoteComponent(name: RemoteName): Promise<ComponentType> {
  let promise = loading.get(name);
  if (!promise) {
    promise = loadRemoteApp(name, failed.has(name)).then((module) => {
      loaded.set(name, module.default);
      return module.default;
    });
    loading.set(name, promise);
  }
  return promise;
}

/**
 * Starts loading the remote the page opens on, as the app starts rather than once its first
 * render has run: the kiosk, and a signed-in worker's screen. A failure is shown when the section
 * renders, which retries it.
 */
export function preloadFirstRemote(path: string, signedIn: boolean): void {
  const name = path === '/kiosk' ? 'kiosk' : path === '/worker' && signedIn ? 'worker' : null;
  if (name) loadRemoteComponent(name).catch(() => undefined);
}

/** Forgets a failed remote so that the next render loads it afresh. */
export function markRemoteFailed(name: RemoteName): void {
  failed.add(name);
  loading.delete(name);
  loaded.delete(name);
}
