// Where each remote's manifest is, read from /config.json when the shell starts. A module apart from
// the Module Federation runtime so that the entry (index.ts) can ask for it before anything else.

export const REMOTE_NAMES = ['worker', 'admin', 'superadmin', 'kiosk'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

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
export function remoteManifests(): Promise<RemoteManifests> {
  manifestsPromise ??= fetchManifests().catch((error: unknown) => {
    manifestsPromise = null;
    throw error;
  });
  return manifestsPromise;
}
