import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { RpcError } from '@lws/messaging';

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

/** Addresses a push endpoint may never reach: this machine, private networks, link-local (cloud metadata), multicast, reserved. */
const FORBIDDEN = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv6');
}

/** True for an address a request from the server must not reach (an IPv4-mapped IPv6 address is judged as its IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return FORBIDDEN.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the push agent: resolves the name and refuses it when any address is forbidden,
 * so the address the connection uses is the one checked (a name that resolved to a public address
 * at subscribe time and to 127.0.0.1 now is refused now: DNS rebinding).
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isForbiddenAddress(a.address));
    if (bad || list.length === 0) {
      const refused = Object.assign(new Error(`push endpoint ${hostname} resolves to a forbidden address (${bad?.address ?? 'none'})`), {
        code: 'EPUSHADDRESS',
      });
      return callback(refused, '');
    }
    if (options.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}

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
    const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      dnsLookup(host.replace(/^\[|\]$/g, ''), { all: true }, (err, found) => (err ? reject(err) : resolve(found))),
    ).catch(() => {
      throw new RpcError(400, `endpoint's host ${host} could not be resolved`, { field: 'endpoint' });
    });
    if (addresses.length === 0 || addresses.some((a) => isForbiddenAddress(a.address))) {
      throw new RpcError(400, 'endpoint must be on a public address', { field: 'endpoint' });
    }
    return url;
  }
}
