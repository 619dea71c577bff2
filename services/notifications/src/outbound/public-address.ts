import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';

/**
 * Where a request the server makes to a URL someone else chose (a browser's push endpoint, an
 * organisation's webhook) may never go: this machine, private networks, link-local (cloud
 * metadata), multicast, reserved. Without this check such a URL could reach anything the server
 * can (server-side request forgery).
 */
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

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as its IPv4 address; any other as it is. */
function unmapped(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}

/** True for an address a request from the server must not reach (an IPv4-mapped IPv6 address is judged as its IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const plain = unmapped(address);
  const family = isIP(plain);
  if (family === 0) return true;
  return FORBIDDEN.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** True for this machine's own addresses (127.0.0.0/8, ::1), which tests and development may be allowed to reach. */
export function isLoopbackAddress(address: string): boolean {
  const plain = unmapped(address);
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

export interface AddressPolicy {
  /** Loopback is reachable too (tests and development only; every other forbidden range stays forbidden). */
  allowLoopback?: boolean;
}

/** Whether a request may connect to this address under the policy. */
export function addressAllowed(address: string, policy: AddressPolicy = {}): boolean {
  if (policy.allowLoopback && isLoopbackAddress(address)) return true;
  return !isForbiddenAddress(address);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for an HTTP agent: resolves the name and refuses it (error `code`) when any address
 * is not allowed, so the address the connection uses is the one checked (a name that resolved to a
 * public address when it was stored and to 127.0.0.1 now is refused now: DNS rebinding). Node
 * skips `lookup` for an IP literal host: callers check those with `addressAllowed` first.
 */
export function guardedLookupFor(what: string, code: string, policy: AddressPolicy = {}) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => !addressAllowed(a.address, policy));
      if (bad || list.length === 0) {
        const refused = Object.assign(new Error(`${what} ${hostname} resolves to a forbidden address (${bad?.address ?? 'none'})`), {
          code,
        });
        return callback(refused, '');
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/**
 * Whether every address the host (a name or an IP literal) resolves to is allowed: 'ok',
 * 'forbidden', or 'unresolved' when the name does not resolve.
 */
export async function hostAddressesAllowed(host: string, policy: AddressPolicy = {}): Promise<'ok' | 'forbidden' | 'unresolved'> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return addressAllowed(bare, policy) ? 'ok' : 'forbidden';
  const addresses = await new Promise<LookupAddress[] | undefined>((resolve) =>
    dnsLookup(bare, { all: true }, (err, found) => resolve(err ? undefined : found)),
  );
  if (!addresses || addresses.length === 0) return 'unresolved';
  return addresses.every((a) => addressAllowed(a.address, policy)) ? 'ok' : 'forbidden';
}
