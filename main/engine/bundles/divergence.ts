/**
 * From when a bundle's replay holds its fault rules otherwise than the source did, so that no
 * outcome after it is the replay's to judge. A request the replay does not make (one of a player
 * busy since before the scenario, before a load of its went through) spends a rule with a count of
 * answers, or draws from a rule of chance, in the source only; and a rule of chance that drew
 * before the span draws afresh. From the earliest such moment, every call's and action's outcome
 * is made and not checked, and a note says why (docs/scenarios-and-bundles.md, what a bundle
 * cannot replay). Found by restart-round-trip.test.ts: a one-answer rule spent by a restored
 * player's refresh made the replay's next load fail, 502 against 200; a draw so taken made a load
 * wait that had not waited; a load a redrawn rule answered 403 had gone through.
 */
import type { FaultRule } from '../api/fault-types.js';
import { isJudgedCall, unjudged } from '../api/scenario-checks.js';
import type { ScenarioStep } from '../api/scenario-types.js';
import type { TrafficSummary } from '../api/traffic-types.js';

/** A player's request, and the fault rule that answered it (a traffic entry's `fault`), if one did. */
export interface PlayerRequestMet {
  at: number;
  playerId: string;
  ruleId: string | null;
  /** A window a call waits for (a load's first, a skip's, a pause's, a play's, a resume's). */
  waitedOn?: true;
}

/**
 * The reasons of the windows a call waits for before it answers: a load for its first window, a
 * listener's skip, pause, play or resume for theirs (player/request-policies.ts: `command` and
 * `user`). The other windows, the reports and the polls are the player's own, waited for by nobody.
 */
const WAITED_ON_REASONS: ReadonlySet<string> = new Set([
  'load',
  'load+queueCompleted',
  'skipNext',
  'skipPrev',
  'pause',
  'play',
  'resume',
]);

/** A player's traffic entry as the bundle's builder reads it (null: not a player's). */
export function playerRequestMet(
  entry: Pick<TrafficSummary, 'at' | 'playerId' | 'fault' | 'path' | 'reason'>,
): PlayerRequestMet | null {
  if (!entry.playerId) return null;
  const waitedOn = entry.path.endsWith('/itemWindow') && entry.reason !== null && WAITED_ON_REASONS.has(entry.reason);
  return {
    at: entry.at,
    playerId: entry.playerId,
    ruleId: entry.fault?.ruleId ?? null,
    ...(waitedOn ? { waitedOn: true as const } : {}),
  };
}

/** A control API call a fault rule answered in the route's place (`METHOD path`). */
export interface ControlAnswered {
  at: number;
  ruleId: string;
  line: string;
}

/** What the replay cannot make of a busy player: who, and when a load of its went through. */
export interface BusyPlayers {
  playerIds: ReadonlySet<string>;
  reloadedAt: ReadonlyMap<string, number>;
}

export class Divergence {
  /** The rules no answer changes: no count of answers, no chance. */
  private readonly unspendable = new Set<string>();
  /** From when a rule of chance stood: any request may draw from it, a rule's answer or not. */
  private drawsFrom = Infinity;
  private earliest: { at: number; why: string } | null = null;
  /** Where each call's steps begin, by the call's engine time. */
  private readonly stepsAt: { at: number; index: number }[] = [];

  /** A rule the replay holds from `at` on. */
  ruleAdded(rule: FaultRule, at: number): void {
    if (rule.times === undefined && rule.probability === undefined) this.unspendable.add(rule.id);
    if (rule.probability !== undefined) this.drawsFrom = Math.min(this.drawsFrom, at);
  }

  /** The steps of a call made at `at` begin at `index`. */
  callAt(at: number, index: number): void {
    this.stepsAt.push({ at, index });
  }

  /** From `at` on, the replay's rules stand otherwise than the source's, because `why`. */
  diverged(at: number, why: string): void {
    if (!this.earliest || at < this.earliest.at) this.earliest = { at, why };
  }

  /**
   * The earliest request of `busy` players from `from` on, before a load of theirs went through,
   * that a rule with a count answered or a rule of chance drew for; `ref` names a rule as the
   * bundle does. Undefined: none.
   */
  uncausedRequest(
    requests: readonly PlayerRequestMet[],
    from: number,
    busy: BusyPlayers,
    ref: (ruleId: string) => string,
  ): { at: number; why: string } | undefined {
    let hit: PlayerRequestMet | undefined;
    // The earliest: the log holds requests as they ended, not as they began.
    for (const r of requests)
      if (
        // A rule that answers every request it matches stands the same whoever it answered.
        ((r.ruleId !== null && !this.unspendable.has(r.ruleId)) || r.at >= this.drawsFrom) &&
        r.at >= from &&
        busy.playerIds.has(r.playerId) &&
        // At the load's own instant (the clock stopped) which came first cannot be told: counted.
        r.at <= (busy.reloadedAt.get(r.playerId) ?? Infinity) &&
        (!hit || r.at < hit.at)
      )
        hit = r;
    if (!hit) return undefined;
    return {
      at: hit.at,
      why:
        hit.ruleId !== null
          ? `rule ${ref(hit.ruleId)} answered a request of ${hit.playerId}, busy since before the scenario began, which the replay does not make`
          : `a request of ${hit.playerId}, busy since before the scenario began, which the replay does not make, drew from a rule of chance`,
    };
  }

  /**
   * The earliest control call a rule with a count of answers (or of chance) answered in the route's
   * place: the journal never saw it, so the replay does not make it, and the rule's next answer goes
   * to the next call, which the source had answered 200 (audit). Undefined: none.
   */
  unmadeControlCall(
    calls: readonly ControlAnswered[],
    ref: (ruleId: string) => string,
  ): { at: number; why: string } | undefined {
    // The earliest by its start: the log reads entries as they ended.
    let first: ControlAnswered | undefined;
    for (const call of calls) if (!this.unspendable.has(call.ruleId) && (!first || call.at < first.at)) first = call;
    if (!first) return undefined;
    return {
      at: first.at,
      why: `rule ${ref(first.ruleId)} answered ${first.line} in the control API's place, so the journal does not hold that call and the replay does not make it`,
    };
  }

  /** Marks every outcome `steps` would check from the divergence on as not checked; the note says so. */
  apply(steps: ScenarioStep[], note: (text: string) => void): void {
    if (!this.earliest) return;
    const { at, why } = this.earliest;
    const first = this.stepsAt.find((s) => s.at >= at)?.index ?? steps.length;
    let unchecked = 0;
    for (let i = first; i < steps.length; i++) {
      const step = steps[i]!;
      if (!isJudgedCall(step)) continue;
      // A session made stays checked: the calls after it name it.
      if (step.outcomeNotChecked || step.pendingAtExport || (step.type === 'command' && step.save)) continue;
      steps[i] = unjudged(step, why);
      unchecked++;
    }
    if (unchecked)
      note(
        `the outcomes of the ${unchecked} calls and actions from ${new Date(at).toISOString()} on are not checked: ${why}`,
      );
  }
}
