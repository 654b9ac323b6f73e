/**
 * Which rules will never get to act, and why (a "404 on itemWindow" rule added under a
 * live "503 storm" never fired, and nothing said so). The first live rule that matches a request
 * wins, so a rule is *shadowed* when an earlier live rule of its target matches every request it
 * would match and always acts on them: it has no `times` left to run out and no `probability`
 * below 1 to let one through. That is only said when it is certain; an earlier rule that takes
 * some of the rule's requests, or all of them for a while, is a warning of its own.
 *
 * "Certain" is decided on the patterns alone, never by guessing at the requests that will come:
 * a path pattern covers another when every path the second matches is one the first matches
 * (`/itemWindow` covers `/queues/q/v2.3/itemWindow`; `*` and a glob that starts with `*` cover
 * every path that ends as they do); two globs cover each other only when they are the same glob.
 * Where coverage cannot be proved but the two can match one request, the rule is "partly
 * shadowed". A `player` rule is across a wire from a `cloudQueue` one: it fails the player's
 * request before it reaches the console's server, whatever their order, but other clients still
 * reach the server, so it is never more than a partial shadow.
 */
import type { FaultMatch, FaultRule, FaultRuleView, FaultShadow } from '../api/fault-types.js';
import { pathMatches } from './match.js';

/** Each rule in matching order, with what an earlier (or a player-side) rule leaves it. */
export function withShadows(rules: readonly FaultRule[]): FaultRuleView[] {
  return rules.map((rule, index) => ({ ...rule, ...shadowOf(rule, rules.slice(0, index), rules) }));
}

function shadowOf(
  rule: FaultRule,
  earlier: readonly FaultRule[],
  all: readonly FaultRule[],
): Pick<FaultRuleView, 'shadowedBy' | 'shadow' | 'warning'> {
  const none = { shadowedBy: null, shadow: null, warning: null };
  if (rule.spent) return none;
  const live = earlier.filter((other) => !other.spent && other.target === rule.target);
  const full = live.find((other) => alwaysActs(other) && covers(other.match, rule.match));
  if (full) {
    return {
      shadowedBy: ref(full),
      shadow: 'full',
      warning: `shadowed by ${name(full)}: it comes first and takes every request this rule matches, so this rule never fires (first match wins). Move this rule above it, or remove it.`,
    };
  }
  const delaying = live.find((other) => isCertainTimes(other) && covers(other.match, rule.match));
  if (delaying) return delayed(delaying, 'this rule matches');
  const partial = live.find((other) => alwaysActs(other) && mayOverlap(other.match, rule.match));
  if (partial) {
    return {
      shadowedBy: null,
      shadow: 'partial',
      warning: `partly shadowed by ${name(partial)}: it comes first and takes the requests both match (first match wins); only the others reach this rule.`,
    };
  }
  const overlapping = live.find((other) => isCertainTimes(other) && mayOverlap(other.match, rule.match));
  if (overlapping) return delayed(overlapping, 'both match');
  if (rule.target === 'cloudQueue') {
    const client = all.find(
      (other) =>
        !other.spent &&
        other.target === 'player' &&
        other.action.type !== 'latency' &&
        alwaysActs(other) &&
        mayOverlap(other.match, rule.match),
    );
    if (client) {
      return {
        shadowedBy: null,
        shadow: 'partial',
        warning: `partly shadowed by ${name(client)} in the player's client: the players' requests it fails never reach the console's server; only other clients' requests reach this rule.`,
      };
    }
  }
  return none;
}

function delayed(first: FaultRule, which: string): Pick<FaultRuleView, 'shadowedBy' | 'shadow' | 'warning'> {
  const left = first.times! - first.hits;
  return {
    shadowedBy: null,
    shadow: 'delayed',
    warning: `${name(first)} comes first and takes the next ${left} request${left === 1 ? '' : 's'} ${which}; this rule gets them only after that (first match wins).`,
  };
}

/** A `times` rule with hits left that never lets a request through by chance. */
function isCertainTimes(rule: FaultRule): boolean {
  return rule.times !== undefined && isCertain(rule);
}

/** No `times` to run out, and nothing let through by chance. */
function alwaysActs(rule: FaultRule): boolean {
  return rule.times === undefined && isCertain(rule);
}

function isCertain(rule: FaultRule): boolean {
  return rule.probability === undefined || rule.probability >= 1;
}

/** Whether every request `inner` matches is one `outer` matches. */
export function covers(outer: FaultMatch, inner: FaultMatch): boolean {
  if (outer.method !== undefined && outer.method.toUpperCase() !== inner.method?.toUpperCase()) return false;
  if (outer.reason !== undefined && outer.reason !== inner.reason) return false;
  if (outer.path === undefined) return true;
  if (inner.path === undefined) return false;
  return pathCovers(outer.path, inner.path);
}

/**
 * Request paths always start with `/`, so a literal pattern matches exactly the paths that end
 * with it as a whole segment (`match.ts`): its "suffix", with a leading `/`.
 */
function pathCovers(outer: string, inner: string): boolean {
  if (outer === inner) return true;
  const outerGlob = outer.includes('*');
  const innerGlob = inner.includes('*');
  if (outerGlob) {
    const pieces = outer.split('*');
    // Only `*…` globs: one that names a start matches some paths that end as `inner` does, not all.
    if (pieces[0] !== '') return false;
    if (pieces.every((piece) => piece === '')) return true;
    // A glob that starts with `*` and matches a path matches every path that ends with it.
    return !innerGlob && pathMatches(outer, suffixOf(inner));
  }
  if (innerGlob) {
    // Every match of a glob ends with its last piece.
    const last = inner.split('*').at(-1)!;
    return last.endsWith(suffixOf(outer));
  }
  return suffixOf(inner).endsWith(suffixOf(outer));
}

/** Whether one request could match both (not certain to be disjoint). */
export function mayOverlap(a: FaultMatch, b: FaultMatch): boolean {
  if (a.method !== undefined && b.method !== undefined && a.method.toUpperCase() !== b.method.toUpperCase())
    return false;
  if (a.reason !== undefined && b.reason !== undefined && a.reason !== b.reason) return false;
  if (a.path === undefined || b.path === undefined) return true;
  if (a.path.includes('*') || b.path.includes('*')) return true;
  const sa = suffixOf(a.path);
  const sb = suffixOf(b.path);
  return sa.endsWith(sb) || sb.endsWith(sa);
}

function suffixOf(pattern: string): string {
  return pattern.startsWith('/') ? pattern : `/${pattern}`;
}

function ref(rule: FaultRule): FaultShadow {
  return { id: rule.id, label: rule.label ?? null };
}

function name(rule: FaultRule): string {
  return rule.label ? `"${rule.label}"` : `rule ${rule.id}`;
}
