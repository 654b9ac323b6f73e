/**
 * The base URL is one the platform's players can reach (docs/contract/console.md §8): https, on a
 * public address. Players run in listeners' homes and fetch from the internet: an http URL, a
 * loopback or a private address works on the developer's desk and nowhere else. A warning, and
 * the run goes on: checking a server on one's own machine is what the suite is for.
 */
import { BlockList, isIP } from 'node:net';
import { pass, warn, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { RULE } from '../rules.js';

/** Loopback, private, unique-local and link-local ranges: no player on the internet reaches them. */
const UNREACHABLE = new BlockList();
for (const [network, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['0.0.0.0', 8],
] as const)
  UNREACHABLE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['::', 128],
] as const)
  UNREACHABLE.addSubnet(network, prefix, 'ipv6');

/** Why players would not reach `hostname`, or null. */
export function unreachableHost(hostname: string): string | null {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is this machine`;
  const family = isIP(host);
  if (family === 0) return null;
  return UNREACHABLE.check(host, family === 4 ? 'ipv4' : 'ipv6') ? `${host} is a loopback or private address` : null;
}

export const reachableBaseUrl: ConformanceCase = {
  id: 'base-url.reachable',
  rule: RULE.suite,
  title: "The base URL is one the platform's players can reach: https, on a public address",
  async run({ server }: CaseContext): Promise<Verdict> {
    const url = new URL(server.baseUrl);
    const problems: string[] = [];
    if (url.protocol !== 'https:') problems.push(`it is ${url.protocol.slice(0, -1)}, not https`);
    const host = unreachableHost(url.hostname);
    if (host) problems.push(host);
    const where = `${url.protocol}//${url.host}`;
    if (problems.length)
      return warn(
        `${where}: ${problems.join(', and ')}: the platform's players will not reach it (expected an https URL on a public address; this run goes on)`,
        [],
      );
    return pass(`${where}: https, on a public address`, []);
  },
};
