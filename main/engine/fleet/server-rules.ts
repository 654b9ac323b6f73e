/**
 * The console's own fault rules at its cloud queue server (target `cloudQueue`, the Faults area),
 * as a fleet against that server sees them: their answers are not the server's, yet the fleet's
 * figures count them as the server's errors. A fleet failed by a 503 storm left live since the
 * morning said nothing of it, and read as the server's fault (ui-x3 U17). A fleet against the
 * reference server counts those rules' hits from its start, and its report says so.
 */
import type { FaultRule } from '../api/fault-types.js';

export class ServerRuleHits {
  /** Each rule's hits when the fleet started: what it answered after is the fleet's time's. */
  private readonly atStart: ReadonlyMap<string, number>;

  constructor(private readonly list: () => readonly FaultRule[]) {
    this.atStart = new Map(serverRules(list()).map((rule) => [rule.id, rule.hits]));
  }

  /** The note, or null when no such rule answered anything since the start. */
  note(): string | null {
    const answered = serverRules(this.list())
      .map((rule) => ({ rule, hits: rule.hits - (this.atStart.get(rule.id) ?? 0) }))
      .filter(({ hits }) => hits > 0);
    if (answered.length === 0) return null;
    const total = answered.reduce((sum, { hits }) => sum + hits, 0);
    const named = answered
      .slice(0, 3)
      .map(({ rule, hits }) => `${rule.label ?? rule.id} ${hits.toLocaleString('en-US')}`)
      .join(', ');
    const more = answered.length > 3 ? `, and ${answered.length - 3} more` : '';
    return (
      `${answered.length === 1 ? 'a fault rule' : `${answered.length} fault rules`} of the Faults area at the console's cloud queue server answered ` +
      `${total.toLocaleString('en-US')} request${total === 1 ? '' : 's'} while the fleet played (${named}${more}; ` +
      `the console's own players' among them): those answers were the rules', not the server's, and the figures count them as the server's errors`
    );
  }
}

function serverRules(rules: readonly FaultRule[]): FaultRule[] {
  return rules.filter((rule) => rule.target === 'cloudQueue');
}
