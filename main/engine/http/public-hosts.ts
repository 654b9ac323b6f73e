/**
 * Whether a host can be reached from the public internet, and why not: for the login service's
 * redirect URLs and event delivery's callback URLs alike, so it sits below both.
 */
import { BlockList, isIP } from 'node:net';
import { isLoopbackHostname } from './loopback.js';

/** Address ranges that are not publicly routable, with the words that say why. */
const NON_PUBLIC: readonly [address: string, prefix: number, family: 'ipv4' | 'ipv6', why: string][] = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified address ("this network", 0.0.0.0/8)'],
  ['10.0.0.0', 8, 'ipv4', 'a private address (10.0.0.0/8, RFC 1918)'],
  ['172.16.0.0', 12, 'ipv4', 'a private address (172.16.0.0/12, RFC 1918)'],
  ['192.168.0.0', 16, 'ipv4', 'a private address (192.168.0.0/16, RFC 1918)'],
  ['100.64.0.0', 10, 'ipv4', 'a shared carrier-grade NAT address (100.64.0.0/10)'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address (169.254.0.0/16)'],
  ['192.0.0.0', 24, 'ipv4', 'an IETF protocol assignment address (192.0.0.0/24)'],
  ['192.0.2.0', 24, 'ipv4', 'a documentation address (192.0.2.0/24)'],
  ['198.51.100.0', 24, 'ipv4', 'a documentation address (198.51.100.0/24)'],
  ['203.0.113.0', 24, 'ipv4', 'a documentation address (203.0.113.0/24)'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address (198.18.0.0/15)'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address (224.0.0.0/4)'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved or broadcast address (240.0.0.0/4)'],
  ['::', 128, 'ipv6', 'the unspecified address (::)'],
  ['fe80::', 10, 'ipv6', 'a link-local address (fe80::/10)'],
  ['fc00::', 7, 'ipv6', 'a unique local address (fc00::/7, private)'],
  ['ff00::', 8, 'ipv6', 'a multicast address (ff00::/8)'],
  ['2001:db8::', 32, 'ipv6', 'a documentation address (2001:db8::/32)'],
  ['100::', 64, 'ipv6', 'a discard-only address (100::/64)'],
];

const RANGES = NON_PUBLIC.map(([address, prefix, family, why]) => {
  const list = new BlockList();
  list.addSubnet(address, prefix, family);
  return { list, family, why };
});

/** DNS names that only resolve inside a network, never on the public internet. */
const PRIVATE_SUFFIXES = [
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'home',
  'home.arpa',
  'corp',
  'private',
  'test',
  'example',
  'invalid',
  'onion',
];

export function isLoopback(host: string): boolean {
  if (isLoopbackHostname(host)) return true;
  const v4 = mappedIpv4(host);
  return v4 !== null && v4.startsWith('127.');
}

/** Why a host cannot be reached from the public internet, or null when it can. */
export function notPubliclyRoutable(host: string): string | null {
  const family = isIP(host);
  if (family === 0) {
    const name = host.toLowerCase().replace(/\.$/, '');
    if (!name.includes('.')) return 'a single-label name, not a public DNS name';
    const suffix = PRIVATE_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
    return suffix ? `under .${suffix}, which only resolves inside a local network` : null;
  }
  const v4 = family === 6 ? mappedIpv4(host) : host;
  const [address, kind] = v4 !== null ? [v4, 'ipv4' as const] : [host, 'ipv6' as const];
  return RANGES.find((range) => range.family === kind && range.list.check(address, kind))?.why ?? null;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:hhhh:hhhh). */
function mappedIpv4(host: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(host);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(host);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}
