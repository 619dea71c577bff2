import { RpcError } from '@lws/messaging';
import { guardedLookupFor, hostAddressesAllowed } from '../outbound/public-address';

export { isForbiddenAddress } from '../outbound/public-address';

/**
 * The major browsers' push services (Chrome/Edge via FCM, Firefox, Safari, Windows). A push endpoint
 * is a URL the browser hands us and the server POSTs to: without this list a client could point it
 * at anything the server can reach (server-side request forgery).
 */
export const DEFAULT_PUSH_ENDPOINT_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.services.mozilla.com',
  'web.push.apple.com',
  '*.push.apple.com',
  '*.notify.windows.com',
].join(',');

/**
 * A `lookup` for the push agent: resolves the name and refuses it when any address is forbidden,
 * so the address the connection uses is the one checked (a name that resolved to a public address
 * at subscribe time and to 127.0.0.1 now is refused now: DNS rebinding).
 */
export const guardedLookup = guardedLookupFor('push endpoint', 'EPUSHADDRESS');

export interface EndpointPolicyOptions {
  /** Comma-separated host names; `*.example.com` matches any name under example.com. */
  hosts: string;
  /** A fake push service's exact origin (tests, development), allowed over http on this machine. */
  testOrigin?: string;
}

/** Which push endpoints the server will store and POST to. */
export class EndpointPolicy {
  private readonly exact = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly testOrigin?: string;

  constructor(options: EndpointPolicyOptions) {
    for (const raw of options.hosts.split(',')) {
      const host = raw.trim().toLowerCase();
      if (!host) continue;
      if (host.startsWith('*.')) this.suffixes.push(host.slice(1));
      else this.exact.add(host);
    }
    this.testOrigin = options.testOrigin ? new URL(options.testOrigin).origin : undefined;
  }

  /** Whether the endpoint is the configured fake push service (reached without the address checks). */
  isTestEndpoint(url: URL): boolean {
    return this.testOrigin !== undefined && url.origin === this.testOrigin;
  }

  /** Whether the server may POST to this URL at all (https on an allowed host, or the fake push service); addresses are checked on connecting. */
  allows(url: URL): boolean {
    if (this.isTestEndpoint(url)) return true;
    if (url.protocol !== 'https:' || url.username || url.password) return false;
    const host = url.hostname.toLowerCase();
    return this.exact.has(host) || this.suffixes.some((s) => host.endsWith(s) && host.length > s.length);
  }

  /** Refuses (400, field `endpoint`) a URL that is not https on an allowed host that resolves to public addresses only. */
  async check(endpoint: string): Promise<URL> {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new RpcError(400, 'endpoint must be a URL', { field: 'endpoint' });
    }
    if (this.isTestEndpoint(url)) return url;
    if (url.protocol !== 'https:') throw new RpcError(400, 'endpoint must be an https:// URL', { field: 'endpoint' });
    if (url.username || url.password) throw new RpcError(400, 'endpoint must not carry credentials', { field: 'endpoint' });
    if (!this.allows(url)) throw new RpcError(400, 'endpoint must be on a known push service (PUSH_ENDPOINT_HOSTS)', { field: 'endpoint' });
    const host = url.hostname.toLowerCase();
    const addresses = await hostAddressesAllowed(host);
    if (addresses === 'unresolved') throw new RpcError(400, `endpoint's host ${host} could not be resolved`, { field: 'endpoint' });
    if (addresses === 'forbidden') throw new RpcError(400, 'endpoint must be on a public address', { field: 'endpoint' });
    return url;
  }
}
