/**
 * The console's own fault rules at its cloud queue server (target `cloudQueue`, the Faults area),
 * as a fleet against that server sees them: their answers are not the server's, yet the fleet's
 * figures hold them as the server's. A fleet failed by a 503 storm left live since the morning
 * said nothing of it, and read as the server's fault (ui-x3 U17). A fleet against the reference
 * server counts those rules' hits from its start, and its report says so.
 */
import type { FaultAction, FaultRule } from '../api/fault-types.js';

interface Seen {
  name: string;
  action: FaultAction;
  atStart: number;
  /** The most hits seen: a rule removed meanwhile (a Delete, a clearFaults) keeps what it did. */
  hits: number;
}

export class ServerRuleHits {
  private readonly seen = new Map<string, Seen>();
  private readonly started: ReadonlySet<string>;

  constructor(private readonly list: () => readonly FaultRule[]) {
    const rules = serverRules(list());
    this.started = new Set(rules.map((rule) => rule.id));
    for (const rule of rules) this.seen.set(rule.id, seenOf(rule, rule.hits));
  }

  /** Reads the rules' hits now (each tick): a rule removed before the end keeps its count. */
  observe(): void {
    for (const rule of serverRules(this.list())) {
      const known = this.seen.get(rule.id);
      if (known) known.hits = Math.max(known.hits, rule.hits);
      else this.seen.set(rule.id, seenOf(rule, this.started.has(rule.id) ? rule.hits : 0));
    }
  }

  /** The note, or null when no such rule acted since the start. */
  note(): string | null {
    this.observe();
    const acted = [...this.seen.values()]
      .map((rule) => ({ rule, hits: rule.hits - rule.atStart }))
      .filter(({ hits }) => hits > 0);
    if (acted.length === 0) return null;
    const total = acted.reduce((sum, { hits }) => sum + hits, 0);
    const named = acted
      .slice(0, 3)
      .map(({ rule, hits }) => `${rule.name}: ${deed(rule.action)} ${hits.toLocaleString('en-US')}`)
      .join('; ');
    const more = acted.length > 3 ? `; and ${acted.length - 3} more` : '';
    return (
      `${acted.length === 1 ? 'a fault rule' : `${acted.length} fault rules`} of the Faults area at the console's cloud queue server ` +
      `acted on ${total.toLocaleString('en-US')} request${total === 1 ? '' : 's'} while the fleet played (${named}${more}), ` +
      `the fleet's and any other player's of the console: what they answered was the rules', not the server's, and the fleet's figures hold it as the server's`
    );
  }
}

function serverRules(rules: readonly FaultRule[]): FaultRule[] {
  return rules.filter((rule) => rule.target === 'cloudQueue');
}

function seenOf(rule: FaultRule, atStart: number): Seen {
  return { name: rule.label ?? rule.id, action: rule.action, atStart, hits: rule.hits };
}

/** What a rule did to a request, in a word or two. */
function deed(action: FaultAction): string {
  switch (action.type) {
    case 'status':
      return `answered ${action.status}`;
    case 'timeout':
      return 'left unanswered';
    case 'drop':
      return 'dropped';
    case 'latency':
      return `delayed ${action.ms.toLocaleString('en-US')} ms`;
    case 'malformed':
      return 'answered malformed';
  }
}
