import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * The SSRF guard of webhook targets (OWASP API7). An owner-supplied URL must not make the server
 * post to itself, its network or the cloud metadata service: at registration the host (an address,
 * or every address its name resolves to) must be public; at delivery the name is resolved again and
 * the connection goes to exactly the addresses that were checked (a lookup hook of the request), so a
 * name that re-binds to a private address after registration is refused too. The switch
 * `webhooks.allowPrivateTargets` (VITRINE_WEBHOOKS_ALLOW_PRIVATE=true) turns the address checks off for
 * self-hosted setups that post to internal services; schemes and credentials are checked always.
 */

/** How long a registration waits for DNS before refusing the URL. */
export const TARGET_LOOKUP_TIMEOUT_MS = 5_000;

export const WEBHOOK_PROTOCOLS = ['http:', 'https:'] as const;

/** A refused target; the worker fails such a delivery at once instead of retrying it. */
export class BlockedTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_BLOCKED';
  override readonly name = 'BlockedTargetError';
}

/** [first address, prefix length, what it is] of every IPv4 range a webhook may not reach. */
const BLOCKED_V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved / broadcast'],
];

/** The same for IPv6. IPv4-mapped, IPv4-compatible, NAT64 and 6to4 addresses are judged by the IPv4 address inside. */
const BLOCKED_V6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function v4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** 16 bytes of an IPv6 address (with an optional dotted IPv4 tail); the caller checked it with isIP. */
function v6Bytes(address: string): number[] {
  let text = address.split('%')[0]!;
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail = v4Bytes(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}0:0`;
  }
  const [head, rest] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const words = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function inPrefix(bytes: number[], base: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((bytes[byte]! & mask) !== (base[byte]! & mask)) return false;
  }
  return true;
}

const V4 = BLOCKED_V4.map(([a, bits, what]) => ({ base: v4Bytes(a), bits, what }));
const V6 = BLOCKED_V6.map(([a, bits, what]) => ({ base: v6Bytes(a), bits, what }));
const MAPPED = v6Bytes('::ffff:0:0');
const NAT64 = v6Bytes('64:ff9b::');
const SIX_TO_FOUR = v6Bytes('2002::');
const COMPATIBLE = v6Bytes('::');

/** Why an IP address is not a public unicast address, or undefined when it is one. */
export function blockedAddressReason(address: string): string | undefined {
  const version = isIP(address);
  if (version === 4) {
    const bytes = v4Bytes(address);
    return V4.find((r) => inPrefix(bytes, r.base, r.bits))?.what;
  }
  if (version !== 6) return 'not an IP address';
  const bytes = v6Bytes(address);
  const listed = V6.find((r) => inPrefix(bytes, r.base, r.bits))?.what;
  if (listed) return listed;
  const embedded = bytes.slice(12).join('.');
  // ::ffff:a.b.c.d (mapped) and 64:ff9b::a.b.c.d (NAT64) reach the IPv4 address inside; 2002:aabb:ccdd:: (6to4) too.
  if (inPrefix(bytes, MAPPED, 96) || inPrefix(bytes, NAT64, 96)) return blockedAddressReason(embedded);
  if (inPrefix(bytes, SIX_TO_FOUR, 16)) return blockedAddressReason(bytes.slice(2, 6).join('.'));
  // ::a.b.c.d (IPv4-compatible) is deprecated: never a legitimate target.
  if (inPrefix(bytes, COMPATIBLE, 96)) return 'IPv4-compatible (deprecated)';
  return undefined;
}

/** The host of a URL as the resolver and isIP want it (no IPv6 brackets). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Scheme and credentials: refused whatever the switch says. */
export function urlShapeProblem(url: URL): string | undefined {
  if (!(WEBHOOK_PROTOCOLS as readonly string[]).includes(url.protocol)) return 'must use http or https';
  if (url.username || url.password) return 'must not contain credentials';
  if (hostOf(url) === '') return 'must name a host';
  return undefined;
}

function lookupAll(host: string, timeoutMs: number): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error(`${host} did not resolve within ${timeoutMs} ms`), { code: 'ETIMEOUT' })), timeoutMs);
    dnsLookup(host, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses);
    });
  });
}

/** Resolves a host name and refuses it when any of its addresses is not public. */
async function resolvePublic(host: string, timeoutMs: number): Promise<LookupAddress[]> {
  const addresses = await lookupAll(host, timeoutMs);
  if (addresses.length === 0) throw new BlockedTargetError(`${host} has no addresses`);
  for (const a of addresses) {
    const reason = blockedAddressReason(a.address);
    if (reason) throw new BlockedTargetError(`${host} resolves to ${a.address} (${reason}); private targets are off (webhooks.allowPrivateTargets)`);
  }
  return addresses;
}

/**
 * Checks a URL an owner registers. Returns why it is refused, or undefined. With `allowPrivate` only
 * the shape is checked (no DNS).
 */
export async function webhookUrlProblem(value: string, allowPrivate: boolean, timeoutMs = TARGET_LOOKUP_TIMEOUT_MS): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  const shape = urlShapeProblem(url);
  if (shape || allowPrivate) return shape;
  const host = hostOf(url);
  if (isIP(host)) {
    const reason = blockedAddressReason(host);
    return reason ? `must not point at a private, loopback or link-local address (${host}: ${reason})` : undefined;
  }
  try {
    await resolvePublic(host, timeoutMs);
    return undefined;
  } catch (err) {
    if (err instanceof BlockedTargetError) return `must not point at a private, loopback or link-local address (${err.message})`;
    return `host ${host} does not resolve`;
  }
}

/**
 * Checks a stored URL right before a delivery (scheme, credentials, an IP literal host) and returns it
 * parsed. Host names are checked by `guardedLookup` while connecting. Throws BlockedTargetError.
 */
export function assertDeliverable(value: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BlockedTargetError('webhook URL is not a valid URL');
  }
  const shape = urlShapeProblem(url);
  if (shape) throw new BlockedTargetError(`webhook URL ${shape}`);
  const host = hostOf(url);
  if (allowPrivate || !isIP(host)) return url;
  const reason = blockedAddressReason(host);
  if (reason) throw new BlockedTargetError(`${host} is ${reason}; private targets are off (webhooks.allowPrivateTargets)`);
  return url;
}

/**
 * The `lookup` of a delivery's connection: resolves the name, refuses it when an address is private
 * (unless allowed), and hands the connection exactly the addresses it checked.
 */
export function guardedLookup(allowPrivate: boolean, timeoutMs = TARGET_LOOKUP_TIMEOUT_MS): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const resolved = allowPrivate ? lookupAll(hostname, timeoutMs) : resolvePublic(hostname, timeoutMs);
    resolved.then((all) => {
      const family = options.family === 4 || options.family === 6 ? options.family : undefined;
      const usable = family ? all.filter((a) => a.family === family) : all;
      if (usable.length === 0) {
        callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0);
        return;
      }
      if (options.all) callback(null, usable);
      else callback(null, usable[0]!.address, usable[0]!.family);
    }, (err: NodeJS.ErrnoException) => callback(err, '', 0));
  };
}
