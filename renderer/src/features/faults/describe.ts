/** A fault rule in a few words, the way the rules list and the presets show it. */
import type { FaultAction, FaultMatch, FaultRule, FaultTarget } from '@engine-api/fault-types';

export const TARGET_LABELS: Record<FaultTarget, string> = {
  login: 'Login service',
  control: 'Control API',
  cloudQueue: 'Cloud queue server',
  player: 'Player client',
  events: 'Event deliveries',
};

/** The same, short enough for a table cell. */
export const TARGET_SHORT: Record<FaultTarget, string> = {
  login: 'Login',
  control: 'Control',
  cloudQueue: 'Cloud queue',
  player: 'Player client',
  events: 'Events',
};

export function describeMatch(match: FaultMatch): string {
  const parts = [
    match.method?.toUpperCase(),
    match.path,
    match.reason === undefined ? undefined : `reason=${match.reason}`,
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : 'every request';
}

export function describeAction(action: FaultAction): string {
  switch (action.type) {
    case 'status':
      return [
        String(action.status),
        action.retryAfter === undefined ? '' : `Retry-After ${action.retryAfter} s`,
        action.rejectedReason === undefined ? '' : `X-Rejected-Reason ${action.rejectedReason}`,
        action.body === undefined ? '' : 'custom body',
      ]
        .filter(Boolean)
        .join(' · ');
    case 'timeout':
      return 'timeout (no answer)';
    case 'drop':
      return 'drop (connection reset)';
    case 'latency':
      return `latency ${action.ms} ms`;
    case 'malformed':
      return 'malformed 200 body';
  }
}

export function describeScope(rule: Pick<FaultRule, 'times' | 'probability' | 'seed'>): string {
  const parts: string[] = [];
  if (rule.probability !== undefined)
    parts.push(`p ${rule.probability}${rule.seed === undefined ? '' : `, seed ${rule.seed}`}`);
  if (rule.times !== undefined) parts.push(`next ${rule.times}`);
  return parts.length ? parts.join(' · ') : 'until removed';
}

/** Hits, and for rules that can run out or let requests through, what is left or passed. */
export function describeHits(rule: Pick<FaultRule, 'hits' | 'passes' | 'times' | 'probability'>): string {
  const hits = rule.times === undefined ? `${rule.hits}` : `${rule.hits} / ${rule.times}`;
  // A drawn rule: how many of the requests it matched it failed ("3 (of 12 matching)").
  return rule.probability === undefined ? hits : `${hits} (of ${rule.hits + rule.passes} matching)`;
}
