/**
 * Derives a scenario from captured traffic, so that another console can replay it: the control
 * API commands (POST) and the user actions at the players, in the order they were answered, the
 * fault rules at the engine time they were added, and a clock step for every engine-time gap
 * (trailing one included, so that retries and timers after the last command play out too).
 *
 * Nothing console-specific stays literal: a session id becomes `${sessionN}` (saved from the
 * createSession answer), and a queue of this console becomes `${<ref>.url}`, `${<ref>.token}` and
 * `${<ref>.<itemId>}` (see bundle-types.ts). What cannot be replayed is left out with a note.
 */
import { MAX_CLOCK_STEP_MS } from '../api/commands/core.js';
import type { FaultRule, FaultRuleInput } from '../api/fault-types.js';
import type { PlayerAction } from '../api/player-types.js';
import type { ScenarioStep } from '../api/scenario-types.js';
import type { StoredTrafficEntry } from '../traffic/log/index.js';

/** Gaps shorter than this are the replay's own noise, not something to reproduce. */
export const MIN_CLOCK_GAP_MS = 50;
/** A saved scenario holds at most this many steps (`scenarios.save`). */
export const MAX_SCENARIO_STEPS = 1_000;

const PLAYER_ACTIONS: readonly string[] = ['play', 'pause', 'skipNext', 'skipPrev', 'resume'];
const SESSION_CREATE = /^\/api\/v1\/groups\/([^/]+)\/playbackSession(?::1)?(?:\/joinOrCreate)?$/;
const SESSION_IN_PATH = /^(\/api\/v1\/(?:playbackSessions|sessions)\/)([^/]+)(\/.*)$/;
const ACTION_REST = /^\/admin\/api\/players\/([^/]+)\/actions$/;
const ACTION_COMMAND = '/admin/api/commands/players.act';

export interface QueueRef {
  ref: string;
  id: string;
  accessToken: string;
  itemIds: ReadonlySet<string>;
}

/** A user action a player recorded (cause `user`), whatever transport carried it. */
export interface UserTransition {
  playerId: string;
  at: number;
  event: string;
}

/** A row of the transition table a player went through, which the replay must see again. */
export interface ExpectedTransition {
  playerId: string;
  at: number;
  transition: string;
}

export interface DeriveInput {
  /** The exported entries, oldest first. */
  entries: readonly StoredTrafficEntry[];
  queues: readonly QueueRef[];
  /** This console's cloud queue URL (queue base URLs under it name our queues). */
  cloudQueueUrl: string;
  /** Every fault rule, with the engine time it was added. */
  faults: readonly FaultRule[];
  /** User actions the players recorded in the entries' time span, oldest first. */
  userTransitions: readonly UserTransition[];
  /**
   * The transitions the exported traffic caused (its answers, commands and user actions), oldest
   * first: checked at the end of the replay, so that a run passes only when the players did the
   * same. Only those from the first replayed command or action on: before it, nothing the
   * scenario does drives a player.
   */
  expected?: readonly ExpectedTransition[];
  /** The group and app of a session created before the exported traffic, if it is still live. */
  sessionOrigin(sessionId: string): { groupId: string; appId: string; appContext: string } | undefined;
  speed: number;
}

export interface DerivedScenario {
  steps: ScenarioStep[];
  notes: string[];
}

/** Something that becomes a step, at the engine time it happened. */
interface Moment {
  at: number;
  step: () => ScenarioStep[];
}

export function faultRuleInput(rule: FaultRule): FaultRuleInput {
  const { id: _id, hits: _hits, passes: _passes, spent: _spent, createdAt: _createdAt, ...input } = rule;
  return input;
}

export function deriveScenario(input: DeriveInput): DerivedScenario {
  const notes = new Notes();
  const queueOfUrl = queueMatcher(input);
  const sessions = new Map<string, string>();
  const sessionQueue = new Map<string, QueueRef>();
  const unconsumed = [...input.userTransitions];

  const sessionVar = (sessionId: string, steps: ScenarioStep[]): string => {
    let name = sessions.get(sessionId);
    if (name) return name;
    name = `session${sessions.size + 1}`;
    sessions.set(sessionId, name);
    const origin = input.sessionOrigin(sessionId);
    if (origin) {
      steps.push({
        type: 'command',
        method: 'POST',
        path: `/api/v1/groups/${origin.groupId}/playbackSession:1`,
        body: { appId: origin.appId, appContext: origin.appContext },
        save: { [name]: 'sessionId' },
      });
      notes.add(`session ${sessionId} was created before the exported traffic: the scenario creates it first (group ${origin.groupId})`);
    } else {
      notes.add(`session ${sessionId} was created before the exported traffic and is gone: the steps that use it will fail`);
    }
    return name;
  };

  const itemRef = (queue: QueueRef | undefined, itemId: unknown): unknown => {
    if (!queue || typeof itemId !== 'string') return itemId;
    if (queue.itemIds.has(itemId)) return `\${${queue.ref}.${itemId}}`;
    // The new queue hands out its own ids: one that was missing here must stay missing there.
    notes.add(`item ${itemId} was not in queue ${queue.id} when exported: the scenario asks for missing-${itemId}, which no queue holds`);
    return `missing-${itemId}`;
  };

  const commandOf = (entry: StoredTrafficEntry): ScenarioStep[] => {
    const steps: ScenarioStep[] = [];
    let body: unknown;
    try {
      body = entry.requestBody ? JSON.parse(entry.requestBody) : undefined;
    } catch {
      notes.add(`${entry.method} ${entry.path} (entry ${entry.id}) has a body that is not JSON: not replayed`);
      return [];
    }
    let path = entry.path;
    const created = SESSION_CREATE.exec(path);
    const inPath = SESSION_IN_PATH.exec(path);
    let sessionId: string | undefined;
    if (inPath) {
      sessionId = inPath[2]!;
      path = `${inPath[1]}\${${sessionVar(sessionId, steps)}}${inPath[3]}`;
    }
    if (isObject(body)) {
      body = { ...body };
      const record = body as Record<string, unknown>;
      let queue: QueueRef | undefined;
      if (typeof record.queueBaseUrl === 'string') {
        const found = queueOfUrl(record.queueBaseUrl);
        if (found) {
          queue = found.queue;
          record.queueBaseUrl = `\${${queue.ref}.url}${found.rest}`;
          if (record.httpAuthorization === `Bearer ${queue.accessToken}`) record.httpAuthorization = `Bearer \${${queue.ref}.token}`;
          else if (record.httpAuthorization !== undefined) notes.add(`a loadCloudQueue of entry ${entry.id} sent a token that is not queue ${queue.id}'s current one: kept as it was`);
        }
        if (sessionId) {
          if (queue) sessionQueue.set(sessionId, queue);
          else sessionQueue.delete(sessionId);
        }
      } else if (sessionId) {
        queue = sessionQueue.get(sessionId);
      }
      if ('itemId' in record) record.itemId = itemRef(queue, record.itemId);
    }
    const step: ScenarioStep = { type: 'command', method: 'POST', path, expectStatus: entry.status! };
    if (body !== undefined) step.body = body;
    if (created && entry.status === 200) {
      const answered = parseJson(entry.responseBody);
      const newSession = isObject(answered) && typeof answered.sessionId === 'string' ? answered.sessionId : undefined;
      if (newSession) {
        if (!sessions.has(newSession)) sessions.set(newSession, `session${sessions.size + 1}`);
        step.save = { [sessions.get(newSession)!]: 'sessionId' };
      }
    }
    steps.push(step);
    return steps;
  };

  /** A user action from the admin API, claiming the transition it caused so it is not added twice. */
  const actionOf = (entry: StoredTrafficEntry): ScenarioStep[] => {
    const body = parseJson(entry.requestBody);
    const rest = ACTION_REST.exec(entry.path);
    const playerId = rest ? rest[1]! : isObject(body) && typeof body.id === 'string' ? body.id : undefined;
    const action = isObject(body) ? body.action : undefined;
    if (!playerId || typeof action !== 'string' || !PLAYER_ACTIONS.includes(action)) return [];
    if (entry.status !== 200 && entry.status !== 409) return [];
    const claimed = unconsumed.findIndex((t) => t.playerId === playerId && t.event === action && t.at >= entry.at);
    if (claimed !== -1) unconsumed.splice(claimed, 1);
    return [{ type: 'action', playerId, action: action as PlayerAction, ...(entry.status === 409 ? { expectError: true } : {}) }];
  };

  // Traffic in the order it was answered: a sequential client's order.
  const moments: Moment[] = [];
  for (const entry of input.entries) {
    if (entry.target === 'control' && entry.method === 'POST' && entry.path.startsWith('/api/v1/')) {
      if (entry.status === 401) notes.add(`control calls answered 401 (the caller's token was refused) are not replayed: the scenario uses the console's own token`);
      else if (entry.status === null) notes.add(`${entry.method} ${entry.path} (entry ${entry.id}) got no answer: not replayed, a scenario step would wait for it forever`);
      else moments.push({ at: entry.at, step: () => commandOf(entry) });
    } else if (entry.target === 'console' && entry.method === 'POST' && (ACTION_REST.test(entry.path) || entry.path === ACTION_COMMAND)) {
      moments.push({ at: entry.at, step: () => actionOf(entry) });
    }
  }
  const first = moments[0]?.at ?? input.entries[0]?.at;
  const last = input.entries.reduce((max, e) => Math.max(max, e.at), -Infinity);

  // Actions are derived in order first, so that those the admin API carried claim their transitions.
  const derived = moments.map((m) => ({ at: m.at, steps: m.step() }));
  // What is left arrived by another transport (the desktop app's IPC): placed by engine time.
  for (const t of unconsumed) {
    if (!PLAYER_ACTIONS.includes(t.event)) continue;
    insertByTime(derived, { at: t.at, steps: [{ type: 'action', playerId: t.playerId, action: t.event as PlayerAction }] }, 'after');
  }
  // Rules come before requests of the same instant: they were there when those were sent. One
  // added before the traffic is there from the start; one added after it, at its end.
  for (const rule of input.faults) {
    const at = first === undefined ? rule.createdAt : Math.min(Math.max(rule.createdAt, first), Math.max(first, last));
    insertByTime(derived, { at, steps: [{ type: 'fault', rule: faultRuleInput(rule) }] }, 'before');
  }
  const referenced = input.entries.flatMap((e) => (e.fault ? [e.fault] : []));
  const gone = new Set(referenced.filter((hit) => !input.faults.some((r) => r.id === hit.ruleId)).map((hit) => hit.label ?? `${hit.action}${hit.status ? ` ${hit.status}` : ''}`));
  if (gone.size) notes.add(`some entries were failed by rules removed since (${[...gone].join(', ')}): those rules are not in the bundle`);

  const steps: ScenarioStep[] = [{ type: 'clearFaults' }, { type: 'clock', speed: input.speed }];
  let now = first;
  for (const moment of derived) {
    if (now !== undefined) pushGap(steps, moment.at - now);
    if (now === undefined || moment.at > now) now = moment.at;
    steps.push(...moment.steps);
  }
  if (now !== undefined && Number.isFinite(last)) pushGap(steps, last - now);
  const expectations = expectationsFrom(input.expected ?? [], moments[0]?.at);
  if (steps.length + expectations.length > MAX_SCENARIO_STEPS) {
    if (steps.length > MAX_SCENARIO_STEPS) {
      notes.add(`the traffic makes ${steps.length} steps; a scenario holds ${MAX_SCENARIO_STEPS}: the rest were left out, and the player transitions are not checked (export a narrower filter)`);
      steps.length = MAX_SCENARIO_STEPS;
    } else notes.add(`the player transitions are not checked: their checks would take the scenario past ${MAX_SCENARIO_STEPS} steps`);
  } else {
    steps.push(...expectations);
  }
  return { steps, notes: notes.list() };
}

/** One `expect` step per player, for the transitions from `start` on (none without a start). */
function expectationsFrom(expected: readonly ExpectedTransition[], start: number | undefined): ScenarioStep[] {
  if (start === undefined) return [];
  const byPlayer = new Map<string, string[]>();
  for (const t of expected) {
    if (t.at < start) continue;
    const rows = byPlayer.get(t.playerId);
    if (rows) rows.push(t.transition);
    else byPlayer.set(t.playerId, [t.transition]);
  }
  return [...byPlayer].map(([playerId, transitions]) => ({ type: 'expect', playerId, transitions }));
}

function pushGap(steps: ScenarioStep[], gap: number): void {
  if (gap < MIN_CLOCK_GAP_MS) return;
  // A step moves the clock at most MAX_CLOCK_STEP_MS: a longer gap (the clock jumped a year ahead)
  // is several steps, or the bundle would not import back.
  for (let left = Math.round(gap); left > 0; left -= MAX_CLOCK_STEP_MS) steps.push({ type: 'clock', advanceMs: Math.min(left, MAX_CLOCK_STEP_MS) });
}

/** Inserts among moments ordered by time: before or after those at the same instant. */
function insertByTime<T extends { at: number }>(list: T[], item: T, tie: 'before' | 'after'): void {
  const index = list.findIndex((m) => (tie === 'before' ? m.at >= item.at : m.at > item.at));
  if (index === -1) list.push(item);
  else list.splice(index, 0, item);
}

/** Which of our queues a base URL names, and what follows the queue's root (`/v2.3/`). */
function queueMatcher(input: DeriveInput): (url: string) => { queue: QueueRef; rest: string } | undefined {
  const prefix = `${input.cloudQueueUrl}/queues/`;
  const byId = new Map(input.queues.map((q) => [q.id, q]));
  return (url) => {
    if (!url.startsWith(prefix)) return undefined;
    const tail = url.slice(prefix.length);
    const slash = tail.indexOf('/');
    const queue = byId.get(slash === -1 ? tail : tail.slice(0, slash));
    return queue && { queue, rest: slash === -1 ? '' : tail.slice(slash) };
  };
}

/** The queue ids of this console a set of entries called, by the URLs they name. */
export function queueIdsUsed(entries: readonly StoredTrafficEntry[], cloudQueueUrl: string): string[] {
  const ids = new Set<string>();
  const fromPath = (path: string) => /^\/queues\/([^/]+)\//.exec(path)?.[1];
  for (const entry of entries) {
    if (entry.target === 'cloudQueue') {
      const id = fromPath(entry.path);
      if (id) ids.add(id);
    } else if (entry.target === 'player' && entry.url.startsWith(`${cloudQueueUrl}/`)) {
      const id = fromPath(entry.path);
      if (id) ids.add(id);
    } else if (entry.target === 'control' && entry.requestBody?.includes('queueBaseUrl')) {
      const body = parseJson(entry.requestBody);
      const url = isObject(body) && typeof body.queueBaseUrl === 'string' ? body.queueBaseUrl : '';
      if (url.startsWith(`${cloudQueueUrl}/`)) {
        const id = fromPath(url.slice(cloudQueueUrl.length));
        if (id) ids.add(id);
      }
    }
  }
  return [...ids];
}

function parseJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Notes said once each, and not too many of them. */
class Notes {
  private readonly said = new Set<string>();
  private dropped = 0;

  add(note: string): void {
    if (this.said.has(note)) return;
    if (this.said.size >= 50) this.dropped++;
    else this.said.add(note);
  }

  list(): string[] {
    return this.dropped ? [...this.said, `and ${this.dropped} more notes`] : [...this.said];
  }
}
