/**
 * What `run FILE` refuses before anything runs (docs/contract/console.md §9), past what
 * `readJsonFile` refuses of any file: steps that would send the console's requests
 * (a player's cloud queue calls with the bundle's Authorization, say) to a host other than the
 * console's own. CI replays bundles that anyone may have written: a bundle must not make the CI
 * machine call into its network. `--allow-host` names the hosts a run may call as well.
 */
import type { ScenarioStep } from '../engine/api/scenario-types.js';
import type { ServiceUrls } from '../engine/api/types.js';
import type { OutboundPolicy } from '../engine/http/outbound-guard.js';
import { UsageError } from './usage.js';
import { uncheckedScenario, unknownNames } from '../engine/api/scenario-checks.js';

/** Wall seconds a whole run may take by default (`--timeout`): long enough for any exported bundle. */
export const DEFAULT_RUN_TIMEOUT_SEC = 300;
/** The longest a run may be given: a day of wall time. */
export const MAX_RUN_TIMEOUT_SEC = 86_400;

/** `host` or `host:port`, as `--allow-host` takes it; refuses what is neither. */
export function parseAllowedHost(value: string): string {
  const candidate = value.trim().toLowerCase();
  if (!URL.canParse(`http://${candidate}/`) || new URL(`http://${candidate}/`).host !== candidate.replace(/:80$/, '')) {
    throw new UsageError(
      `--allow-host takes a host name or host:port (e.g. staging.example.com or 127.0.0.1:8080), got ${JSON.stringify(value)}`,
    );
  }
  return candidate;
}

/**
 * Every absolute http(s) URL the steps carry, in any field (a loadCloudQueue's queueBaseUrl, a
 * path), must name one of the console's own listeners or an allowed host; a queue edit's items are
 * content the console never calls (and the engine's outbound gate holds whatever it does call).
 * A host still holding a `${variable}` is the console's own once filled, and is let through.
 */
export function refuseOutsideHosts(
  file: string,
  steps: readonly ScenarioStep[],
  urls: ServiceUrls,
  allowed: readonly string[],
): void {
  const own = ownHosts(urls);
  const allowedSet = new Set(allowed);
  // A set, in the order found: each named once, in constant time (a list took 47 s at 40,000 URLs, review).
  const outside = new Set<string>();
  steps.forEach((step, index) => {
    // A queue edit's URLs are the items' content (a track's mediaUrl): the console calls none of them.
    if (step.type === 'queueEdit') return;
    for (const text of stringsIn(step)) {
      for (const url of urlsIn(text, urls)) {
        if (own.has(url.host) || allowedSet.has(url.host) || allowedSet.has(url.hostname)) continue;
        // The value whole and a URL inside it may be the same URL: named once.
        outside.add(`step ${index + 1} (${step.type}): ${url.origin}`);
      }
    }
  });
  if (outside.size === 0) return;
  const lines = [...outside];
  const hosts = [...new Set(lines.map((line) => new URL(line.slice(line.indexOf(': ') + 2)).host))];
  throw new UsageError(
    `${file} would call hosts other than this console's own: ${lines.slice(0, 5).join('; ')}${lines.length > 5 ? `; and ${lines.length - 5} more` : ''}. ` +
      `Nothing ran. If you trust the file, allow them: ${hosts.map((host) => `--allow-host ${host}`).join(' ')}`,
  );
}

/** Stands in for a `${variable}` while a value is parsed: a host made of it is the variable's. */
const FILLED = 'cqc-variable';

/**
 * The http(s) URLs a value names: the value itself, parsed whole as the engine would parse it
 * (`http://127.0.0.1 @elsewhere.example/` is a URL of elsewhere.example, its userinfo holding a
 * space), and any URL written inside longer text. A service URL (`${cloudQueue}`) is filled with
 * what it is: `${cloudQueue}@127.0.0.1:39999/` names 127.0.0.1:39999, the service's URL its
 * userinfo (audit). Any other `${variable}` is filled with a stand-in: a host that comes from a
 * saved value is the console's own once filled (the engine's gate holds it if not), but a variable
 * after the host does not hide the host before it.
 */
function urlsIn(text: string, services: ServiceUrls): URL[] {
  const filled = text.replace(/\$\{([^}]*)\}/g, (_whole, name: string) =>
    Object.hasOwn(services, name) ? services[name as keyof ServiceUrls] : FILLED,
  );
  const candidates = [filled, ...[...filled.matchAll(/https?:\/\/[^\s"'<>]+/gi)].map(([match]) => match)];
  return candidates.flatMap((candidate) => {
    if (!URL.canParse(candidate)) return [];
    const url = new URL(candidate);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname.includes(FILLED)) return [];
    return [url];
  });
}

/** A file no run of which could fail (docs/scenarios-and-bundles.md): its PASS would say nothing. */
export function refuseUnchecked(file: string, steps: readonly ScenarioStep[]): void {
  const unchecked = uncheckedScenario(steps);
  if (!unchecked) return;
  throw new UsageError(
    unchecked.kind === 'emptyExpectation' ? `${file}: ${unchecked.message}` : `${file} ${unchecked.message}`,
  );
}

/** A file naming a transition or a player nothing can match (`unknownNames`): it, not the console, is wrong. */
export function refuseUnknownNames(
  file: string,
  steps: readonly ScenarioStep[],
  rows: ReadonlySet<string>,
  players: ReadonlySet<string>,
): void {
  const unknown = unknownNames(steps, rows, players);
  if (unknown) throw new UsageError(`${file} ${unknown}`);
}

/** The hosts (`host:port`) of the console's own listeners. */
export function ownHosts(urls: ServiceUrls): ReadonlySet<string> {
  return new Set(Object.values(urls).map((url) => new URL(url).host));
}

/**
 * The engine's gate on what leaves while the file runs: a URL the steps build as they go (a value
 * saved from an answer, sent as a queueBaseUrl) is held to the rule the file's own URLs met.
 */
export function outboundPolicy(own: () => ReadonlySet<string>, allowed: readonly string[]): OutboundPolicy {
  const allowedSet = new Set(allowed);
  return (url) =>
    own().has(url.host) || allowedSet.has(url.host) || allowedSet.has(url.hostname)
      ? null
      : `run calls no host but this console's own: ${url.origin} is refused (if you trust the file: --allow-host ${url.host})`;
}

function* stringsIn(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* stringsIn(item);
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) if (!CONTENT_KEYS.has(key)) yield* stringsIn(item);
}

/**
 * Fields whose URLs are content the console never calls, as a queue edit's items are: a load's or a
 * skip's `trackMetadata` (its `mediaUrl`, its `imageUrl`). Every export of a load with metadata,
 * the platform's ordinary path, was refused as "would call" the track's media host (audit).
 */
const CONTENT_KEYS: ReadonlySet<string> = new Set(['trackMetadata']);
