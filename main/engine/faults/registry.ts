/**
 * The fault rules: one model for the console's servers and the player's client. A
 * request asks `decide`; the first live rule that matches and (for a probability rule) draws a
 * hit fails it. `times` rules are spent after N hits and stay listed with their counts. The
 * order is the user's (`move`), kept across restarts; hosts see each rule with what the rules
 * before it leave it (`views`, shadow.ts).
 *
 * A change the user made is told to hosts at once; hits are told at most every HIT_PUSH_MS: a
 * storm under a fleet hits thousands of times a second, and each push is every rule with its
 * shadows, as JSON, to every open console. Hits are still stored as they happen.
 */
import { randomBytes } from 'node:crypto';
import type {
  FaultAction,
  FaultHit,
  FaultMatch,
  FaultRule,
  FaultRuleInput,
  FaultRuleView,
  FaultTarget,
} from '../api/fault-types.js';
import type { EngineClock } from '../clock/clock.js';
import type { EventBus } from '../events/bus.js';
import type { FaultRuleRepository } from '../store/repositories/fault-rules.js';
import { matches, type RequestFacts } from './match.js';
import { SeededRandom } from './random.js';
import { withShadows } from './shadow.js';
import { EngineError } from '../api/errors.js';
import { COMBINED_REASONS, ITEM_WINDOW_REASONS, parseReason } from '../cloud-queue/reasons.js';

/** How often hits alone are told to hosts (wall ms). */
export const HIT_PUSH_MS = 250;

export interface FaultDecision {
  rule: FaultRule;
  action: FaultAction;
  hit: FaultHit;
}

/** The reasons a player sends, as a refusal lists them. */
const SENT_REASONS = [...ITEM_WINDOW_REASONS, ...COMBINED_REASONS].join(', ');

export class FaultRegistry {
  private rules: FaultRule[];
  private readonly draws = new Map<string, SeededRandom>();
  private hitPush: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly deps: {
      repo: FaultRuleRepository;
      clock: EngineClock;
      bus: Pick<EventBus, 'emit'>;
      /**
       * A `times` rule's hit taken from a count shared with other threads (a fleet's workers,
       * fleet/shared-times.ts): false once they took them all; undefined for a rule that counts alone.
       */
      takeTime?: (ruleId: string) => boolean | undefined;
    },
  ) {
    this.rules = deps.repo.list();
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /** The rules in matching order, each with the earlier rule that shadows it, if any. */
  views(): FaultRuleView[] {
    return withShadows(this.rules);
  }

  get(id: string): FaultRule | undefined {
    const rule = this.rules.find((r) => r.id === id);
    return rule && { ...rule };
  }

  /**
   * Moves a rule to `toIndex` in the matching order (0 first; past the end: last), stored before
   * it is live. Answers false for an unknown id.
   */
  move(id: string, toIndex: number): boolean {
    const from = this.rules.findIndex((rule) => rule.id === id);
    if (from === -1) return false;
    const next = [...this.rules];
    const [rule] = next.splice(from, 1);
    next.splice(Math.max(0, Math.min(toIndex, next.length)), 0, rule!);
    this.deps.repo.reorder(next.map((r) => r.id));
    this.rules = next;
    this.changed();
    return true;
  }

  add(input: FaultRuleInput): FaultRule {
    // The rule's own fields only: whatever else a caller sent is neither stored nor echoed.
    const { target, match, action, times, probability, seed, label } = input;
    // A reason no player sends matches nothing, and the rule would sit live and useless: a typo's
    // `refesh` was found only by Trigger now (outsider).
    if (match?.reason !== undefined && parseReason(match.reason) === null)
      throw new EngineError(
        'invalid_input',
        `match.reason ${JSON.stringify(match.reason)} is no reason a player sends: one of ${SENT_REASONS}`,
        [{ path: '/match/reason', message: `must be one of ${SENT_REASONS}` }],
      );
    const rule: FaultRule = {
      target,
      action: actionOf(action),
      ...(times !== undefined ? { times } : {}),
      ...(probability !== undefined ? { probability } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(label !== undefined ? { label } : {}),
      id: `fault-${randomBytes(5).toString('hex')}`,
      match: match ? matchOf(match) : {},
      hits: 0,
      passes: 0,
      spent: false,
      createdAt: this.deps.clock.now(),
    };
    if (rule.probability !== undefined && rule.seed === undefined) rule.seed = randomBytes(4).readUInt32LE();
    // Stored first: a rule the store refused must not be live.
    this.deps.repo.add(rule);
    this.rules.push(rule);
    this.changed();
    return { ...rule };
  }

  /**
   * Puts rules back as they were listed (id, counts and all), after the ones there now: what a
   * scenario cleared for its run. A rule still there is left alone.
   */
  putBack(rules: readonly FaultRule[]): number {
    const back = rules.filter((rule) => !this.rules.some((kept) => kept.id === rule.id)).map(ruleOnly);
    if (back.length === 0) return 0;
    for (const rule of back) {
      this.rules.push(rule);
      this.deps.repo.add(rule);
    }
    this.changed();
    return back.length;
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    this.draws.delete(id);
    const removed = this.deps.repo.remove(id) || this.rules.length !== before;
    if (removed) this.changed();
    return removed;
  }

  clear(): number {
    const count = this.rules.length;
    this.rules = [];
    this.draws.clear();
    this.deps.repo.clear();
    this.changed();
    return count;
  }

  /** Decides whether `target` fails this request, and counts it when it does. */
  decide(target: FaultTarget, facts: RequestFacts): FaultDecision | null {
    for (const rule of this.rules) {
      if (rule.spent || rule.target !== target || !matches(rule.match, facts)) continue;
      if (rule.probability !== undefined && this.draw(rule) >= rule.probability) {
        rule.passes++;
        this.deps.repo.save(rule);
        continue;
      }
      if (rule.times !== undefined && this.deps.takeTime?.(rule.id) === false) {
        // Another thread took the rule's last hit: this copy is spent without one.
        rule.spent = true;
        this.deps.repo.save(rule);
        this.changed();
        continue;
      }
      rule.hits++;
      if (rule.times !== undefined && rule.hits >= rule.times) rule.spent = true;
      this.deps.repo.save(rule);
      // A rule spent is a change of state, told at once; a hit alone waits for the next push.
      if (rule.spent) this.changed();
      else this.hitLater();
      const action = rule.action;
      const hit: FaultHit = { ruleId: rule.id, action: action.type };
      if (rule.label !== undefined) hit.label = rule.label;
      if (action.type === 'status') hit.status = action.status;
      return { rule: { ...rule }, action, hit };
    }
    return null;
  }

  /**
   * Hits a rule took elsewhere: in a fleet's worker thread, which decides on a copy of it. Counted
   * as if decided here (spent once its times are used up); an unknown or spent rule is left alone.
   * Answers false for a rule not here (taken away, maybe to be put back): its hits are not told.
   */
  countHits(id: string, hits: number): boolean {
    const rule = this.rules.find((r) => r.id === id);
    if (!rule) return false;
    if (rule.spent || hits <= 0) return true;
    rule.hits += hits;
    if (rule.times !== undefined && rule.hits >= rule.times) rule.spent = true;
    this.deps.repo.save(rule);
    if (rule.spent) this.changed();
    else this.hitLater();
    return true;
  }

  private draw(rule: FaultRule): number {
    let random = this.draws.get(rule.id);
    if (!random) {
      random = new SeededRandom(rule.seed ?? 0);
      // A restored rule continues its sequence where its counters say it stood.
      for (let i = 0; i < rule.hits + rule.passes; i++) random.next();
      this.draws.set(rule.id, random);
    }
    return random.next();
  }

  /** Stops a push of hits still waiting (the engine is closing). */
  close(): void {
    if (this.hitPush) clearTimeout(this.hitPush);
    this.hitPush = null;
  }

  private hitLater(): void {
    if (this.hitPush) return;
    this.hitPush = setTimeout(() => this.changed(), HIT_PUSH_MS);
    this.hitPush.unref?.();
  }

  private changed(): void {
    // Whatever hits were waiting go with this push.
    this.close();
    this.deps.bus.emit('faults.changed', this.views());
  }
}

/** A rule's stored fields only: a view's shadow is worked out again, never kept. */
function ruleOnly(rule: FaultRule): FaultRule {
  const { shadowedBy: _by, shadow: _shadow, warning: _warning, ...stored } = rule as FaultRuleView;
  return { ...stored };
}

function matchOf({ method, path, reason }: FaultMatch): FaultMatch {
  return {
    ...(method !== undefined ? { method } : {}),
    ...(path !== undefined ? { path } : {}),
    ...(reason !== undefined ? { reason } : {}),
  };
}

function actionOf(action: FaultAction): FaultAction {
  switch (action.type) {
    case 'status': {
      const { type, status, retryAfter, rejectedReason, body } = action;
      return {
        type,
        status,
        ...(retryAfter !== undefined ? { retryAfter } : {}),
        ...(rejectedReason !== undefined ? { rejectedReason } : {}),
        ...(body !== undefined ? { body } : {}),
      };
    }
    case 'latency':
      return { type: action.type, ms: action.ms };
    default:
      return { type: action.type };
  }
}
