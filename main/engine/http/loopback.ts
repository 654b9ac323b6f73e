/**
 * Loopback names and addresses, for binding (servers stay on this machine) and for the admin
 * API's DNS-rebinding guard (a page on evil.example that resolves to 127.0.0.1 still sends
 * `Host: evil.example`).
 */
import { isIP } from 'node:net';

export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  if (isIP(name) === 6) return name === '::1' || /^::ffff:127\./.test(name);
  return false;
}

/** The hostname of a Host header value (`[::1]:47100` → `::1`, `localhost:1` → `localhost`). */
export function hostnameOfHostHeader(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) return bracketed[1]!;
  const colon = host.lastIndexOf(':');
  // More than one colon without brackets: a bare IPv6 address, no port.
  if (colon !== -1 && host.indexOf(':') === colon) return host.slice(0, colon);
  return host;
}

/** How a host is written inside a URL. */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}
