/**
 * The presented redirect_uri against the registered ones, character by character (the match is
 * exact, docs/contract/console.md §2), with plain words on the usual mistakes: scheme, port, trailing slash, case,
 * encoding, whitespace, localhost vs 127.0.0.1.
 */
import type { RedirectComparison } from '../../api/oauth-types.js';

export function compareRedirectUri(presented: string, registered: readonly string[]): RedirectComparison {
  const closest = closestOf(presented, registered);
  const firstDifference = closest === null || closest === presented ? null : firstDifferenceOf(presented, closest);
  return {
    presented,
    registered: [...registered],
    closest,
    firstDifference,
    hints: closest === null ? [] : hintsFor(presented, closest),
  };
}

function closestOf(presented: string, registered: readonly string[]): string | null {
  let best: string | null = null;
  let bestScore = -Infinity;
  for (const candidate of registered) {
    const score =
      commonPrefix(presented.toLowerCase(), candidate.toLowerCase()) * 4 -
      Math.abs(candidate.length - presented.length);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function firstDifferenceOf(a: string, b: string): number {
  return commonPrefix(a, b);
}

function hintsFor(presented: string, registered: string): string[] {
  if (presented === registered) return [];
  const hints: string[] = [];
  if (presented.trim() !== presented) hints.push('the presented redirect_uri has spaces at its start or end');
  if (presented.toLowerCase() === registered.toLowerCase())
    hints.push('they differ only in upper/lower case; the match is exact');
  if (stripSlash(presented) === stripSlash(registered)) hints.push('they differ only in a trailing slash');
  if (safeDecode(presented) === registered)
    hints.push('the presented one is URL-encoded once too often (decode it once)');
  if (safeDecode(registered) === presented || encodeURI(presented) === registered)
    hints.push('the registered one is written with %-escapes; send it exactly as registered');
  const a = parse(presented);
  const b = parse(registered);
  if (a && b) {
    if (a.protocol !== b.protocol)
      hints.push(`the scheme differs: ${a.protocol.replace(':', '')} instead of ${b.protocol.replace(':', '')}`);
    if (a.hostname !== b.hostname) {
      const loop = ['localhost', '127.0.0.1', '[::1]'];
      if (loop.includes(a.hostname) && loop.includes(b.hostname)) {
        hints.push(`${a.hostname} and ${b.hostname} are the same machine but different strings; the match is exact`);
      } else hints.push(`the host differs: ${a.hostname} instead of ${b.hostname}`);
    }
    if (a.port !== b.port) hints.push(`the port differs: ${a.port || '(default)'} instead of ${b.port || '(default)'}`);
    else if (a.host === b.host && hostPart(presented) !== hostPart(registered))
      hints.push('one of them writes the default port explicitly');
    if (a.pathname !== b.pathname && stripSlash(a.pathname) !== stripSlash(b.pathname))
      hints.push(`the path differs: ${a.pathname} instead of ${b.pathname}`);
    if (a.search !== b.search) hints.push(`the query differs: "${a.search}" instead of "${b.search}"`);
  }
  return [...new Set(hints)];
}

function stripSlash(value: string): string {
  return value.replace(/\/+(?=$|\?)/, '');
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

function parse(value: string): URL | null {
  try {
    return new URL(value.trim());
  } catch {
    return null;
  }
}

/** The authority as written (`host:port`), before URL normalises it. */
function hostPart(value: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(value.trim())?.[1]?.toLowerCase() ?? '';
}
