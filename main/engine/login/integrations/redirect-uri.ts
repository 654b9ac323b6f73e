/**
 * What may be registered as a redirect URL (docs/contract/platform.md §2.1, §8; docs/contract/console.md §2): HTTPS and publicly
 * routable. Loopback URLs (http or https, 127.0.0.1 / localhost / [::1]) are accepted for local
 * testing but flagged "production would reject this"; with production parity on they are refused.
 * Everything else that cannot be reached from the public internet is refused with the reason why.
 */
import { BlockList, isIP } from 'node:net';
import { LOOPBACK_WARNING } from '../../api/oauth-types.js';
import { isLoopbackHostname } from '../../http/loopback.js';

export type RedirectUriVerdict =
  { ok: true; loopback: boolean; warning: string | null } | { ok: false; reason: string };

export const MAX_REDIRECT_URI_LENGTH = 2048;

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

export function checkRedirectUri(uri: string, options: { productionParity: boolean }): RedirectUriVerdict {
  const refuse = (reason: string): RedirectUriVerdict => ({ ok: false, reason });
  if (uri === '') return refuse('the redirect URL is empty');
  if (uri !== uri.trim()) return refuse('the redirect URL has spaces at its start or end');
  if (uri.length > MAX_REDIRECT_URI_LENGTH)
    return refuse(`the redirect URL is longer than ${MAX_REDIRECT_URI_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return refuse('not an absolute URL (it needs a scheme and a host, like https://app.example.com/callback)');
  }
  if (uri.includes('#')) return refuse('a redirect URL must not have a fragment (#…), RFC 6749 §3.1.2');
  if (url.username || url.password) return refuse('a redirect URL must not carry a user name or password');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(
      `the scheme is ${url.protocol.replace(/:$/, '')}: a redirect URL must be HTTPS (docs/contract/platform.md §2.1)`,
    );
  }

  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isLoopback(host)) {
    if (options.productionParity) {
      return refuse(
        'production parity is on: production rejects loopback redirect URLs (they are not publicly routable)',
      );
    }
    return { ok: true, loopback: true, warning: LOOPBACK_WARNING };
  }
  if (url.protocol === 'http:') {
    return refuse(
      'plain http is accepted only for loopback addresses (127.0.0.1, localhost, [::1]) for local testing; a redirect URL must be HTTPS (docs/contract/platform.md §2.1)',
    );
  }
  const why = notPubliclyRoutable(host);
  if (why)
    return refuse(
      `the host ${url.hostname} is ${why}: a redirect URL must be publicly routable (docs/contract/platform.md §2.1)`,
    );
  return { ok: true, loopback: false, warning: null };
}

export function isLoopbackRedirectUri(uri: string): boolean {
  try {
    return isLoopback(new URL(uri).hostname.replace(/^\[(.*)\]$/, '$1'));
  } catch {
    return false;
  }
}

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
