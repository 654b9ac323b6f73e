/**
 * A journaled control API call as a scenario `command` step, with nothing console-specific left
 * literal: a session id becomes `${sessionN}` (saved from the answer that created it), a queue of
 * this console `${<ref>.url}`, its token `${<ref>.token}` and its items `${<ref>.<itemId>}`.
 */
import { isObject } from '../api/is-object.js';
import type { ScenarioStep } from '../api/scenario-types.js';
import { TOKEN_REF, UNKNOWN_TOKEN } from '../journal/secrets.js';
import type { JournalEntry, JournaledControlCall } from '../journal/types.js';
import { isLoadCall } from './reach-back.js';

export interface QueueRef {
  ref: string;
  id: string;
  itemIds: ReadonlySet<string>;
}

const SESSION_CREATE = /^\/(?:control\/)?api\/v1\/groups\/([^/]+)\/playbackSession(?::1)?(?:\/joinOrCreate)?$/;
/** Why a call after a load with a token of no queue of this console is not checked. */
export const UNLOADABLE_NOTE =
  'a player was loaded with a token of no queue of this console, which the bundle does not carry';

const SESSION_IN_PATH = /^(\/(?:control\/)?api\/v1\/(?:playbackSessions|sessions)\/)([^/]+)(\/.*)$/;
const GROUP_IN_PATH = /^\/(?:control\/)?api\/v1\/groups\/([^/]+)\//;
/** Calls whose outcome does not depend on what the group's player has loaded. */
const NOT_OF_THE_LOAD = /\/groupVolume(?::1)?(?:\/|$)|\/subscription$/;

/** A player that was not idle when the scenario began: the replay's is, and its load is not in the span. */
export interface BusyAtStart {
  playerId: string;
  /** Its state then (`PLAYING`, `PAUSED`, …). */
  state: string;
}

export interface ControlStepDeps {
  queues: readonly QueueRef[];
  cloudQueueUrl: string;
  /**
   * The group and app of a session created before the span: from the live session, else from the
   * journaled call that created it; undefined when neither holds it any more.
   */
  sessionOrigin(sessionId: string): { groupId: string; appId: string; appContext: string } | undefined;
  /** By group: the players busy when the scenario began (none: every player began idle). */
  busyAtStart?: ReadonlyMap<string, BusyAtStart>;
  note(text: string): void;
}

export class ControlSteps {
  /** The scenario's variable of each session (null: a session gone, called by its own id). */
  private readonly sessions = new Map<string, string | null>();
  private readonly sessionQueue = new Map<string, QueueRef>();
  private readonly sessionGroup = new Map<string, string>();
  /**
   * The groups whose player was busy when the scenario began, until a load of theirs goes through:
   * the replay's player is idle, so what a call meets there (a skip, a pause, a seek) the bundle
   * cannot cause. A bundle exported after a restart replayed a skip on a session loaded before it
   * and failed, 409 against 200 (review).
   */
  private readonly busy: Map<string, BusyAtStart>;
  /** When a load of each player busy at the start went through: from then on the replay has its own. */
  readonly reloadedAt = new Map<string, number>();
  /**
   * The groups whose last load that went through carried a token of no queue of this console
   * (`*`: a load whose session's group is not known): the bundle does not carry it, so the
   * replay's load is refused, and what follows on that group (its session's calls, its player's
   * buttons) meets nothing loaded. None of their outcomes is checked until a load the bundle can
   * make goes through there: a bundle never expects what it cannot cause, and each was a FAIL of
   * the replay, not of the console (audit). Other groups stay checked: one such load on Office
   * unchecked every player's calls and transitions, and its bundle passed whatever Living Room
   * did (outside audit of 7 December 2026). A load that failed in the source (a wrong token tried
   * on purpose) fails in the replay too, and stays checked.
   */
  private readonly unloadedGroups = new Set<string>();
  private readonly byId: Map<string, QueueRef>;

  constructor(private readonly deps: ControlStepDeps) {
    this.byId = new Map(deps.queues.map((q) => [q.id, q]));
    this.busy = new Map(deps.busyAtStart);
  }

  /** Why a player action or trigger of `playerId` is not checked (its player began busy), if it is not. */
  busyNote(playerId: string): string | undefined {
    for (const busy of this.busy.values()) if (busy.playerId === playerId) return busyNote(busy);
    return undefined;
  }

  /** The steps of one call: the call, after the session it needs if that began before the span. */
  stepsOf(call: JournaledControlCall): ScenarioStep[] {
    const steps: ScenarioStep[] = [];
    let path = call.path.replace(/^\/control\/api\/v1\//, '/api/v1/');
    const inPath = SESSION_IN_PATH.exec(path);
    let sessionId: string | undefined;
    let gone = false;
    if (inPath) {
      sessionId = inPath[2]!;
      const name = this.sessionVar(sessionId, steps);
      gone = name === null;
      if (name !== null) path = `${inPath[1]}\${${name}}${inPath[3]}`;
    }
    const groupId = sessionId ? this.sessionGroup.get(sessionId) : GROUP_IN_PATH.exec(path)?.[1];
    let body = call.body;
    if (isObject(body)) {
      body = { ...body };
      const record = body as Record<string, unknown>;
      let queue: QueueRef | undefined;
      if (typeof record.queueBaseUrl === 'string') {
        const found = this.queueOfUrl(record.queueBaseUrl);
        if (found) {
          queue = found.queue;
          record.queueBaseUrl = `\${${queue.ref}.url}${found.rest}`;
        }
        if (sessionId) {
          if (queue) this.sessionQueue.set(sessionId, queue);
          else this.sessionQueue.delete(sessionId);
        }
      } else if (sessionId) {
        queue = this.sessionQueue.get(sessionId);
      }
      if (loadWentThrough(call)) {
        if (isUncarriedLoad(call)) this.unloadedGroups.add(groupId ?? '*');
        else this.unloadedGroups.delete(groupId ?? '*');
        const busy = groupId ? this.busy.get(groupId) : undefined;
        if (busy && !this.reloadedAt.has(busy.playerId)) this.reloadedAt.set(busy.playerId, call.at);
        if (groupId) this.busy.delete(groupId);
      }
      if (typeof record.httpAuthorization === 'string') {
        const owner = TOKEN_REF.exec(record.httpAuthorization)?.[1];
        const ref = owner ? this.byId.get(owner) : undefined;
        if (ref) record.httpAuthorization = `Bearer \${${ref.ref}.token}`;
      }
      if ('itemId' in record) record.itemId = this.itemRef(queue, record.itemId);
    }
    const step: ScenarioStep = { type: 'command', method: 'POST', path };
    const notChecked = this.whyNotChecked(call, path, groupId, gone);
    if (notChecked) step.outcomeNotChecked = notChecked;
    else step.expectStatus = call.status;
    if (body !== undefined) step.body = body;
    const created = SESSION_CREATE.exec(path);
    if (created && call.sessionId) {
      this.sessionGroup.set(call.sessionId, created[1]!);
      let name = this.sessions.get(call.sessionId);
      if (!name) this.sessions.set(call.sessionId, (name = `session${this.sessions.size + 1}`));
      step.save = { [name]: 'sessionId' };
    }
    steps.push(step);
    return steps;
  }

  /**
   * The group whose player a command step of `stepsOf` acts on, by its path: undefined for another
   * step, a session's creation (the group's to make whatever its player does), or a group unknown.
   */
  playerGroupOf(step: ScenarioStep): string | undefined {
    if (step.type !== 'command' || SESSION_CREATE.test(step.path)) return undefined;
    return this.groupOfPath(step.path);
  }

  /**
   * Whether a load with a token the bundle does not carry went through last on `groupId`'s player
   * (see `unloadedGroups`); a call whose group is not known is taken as on any such player.
   */
  unloadedFor(groupId: string | undefined): boolean {
    if (this.unloadedGroups.has('*')) return true;
    return groupId === undefined ? this.unloadedGroups.size > 0 : this.unloadedGroups.has(groupId);
  }

  /** The group a control call's path acts on: its session's (by id or by the scenario's name), or the one it names. */
  groupOfPath(path: string): string | undefined {
    const normal = path.replace(/^\/control\/api\/v1\//, '/api/v1/');
    const inPath = SESSION_IN_PATH.exec(normal);
    if (!inPath) return GROUP_IN_PATH.exec(normal)?.[1];
    const name = /^\$\{(\w+)\}$/.exec(inPath[2]!)?.[1];
    if (name === undefined) return this.sessionGroup.get(inPath[2]!);
    for (const [sessionId, known] of this.sessions) if (known === name) return this.sessionGroup.get(sessionId);
    return undefined;
  }

  /** Why the replay cannot meet what `call` met, so that its outcome is not checked; undefined: it is checked. */
  private whyNotChecked(
    call: JournaledControlCall,
    path: string,
    groupId: string | undefined,
    gone: boolean,
  ): string | undefined {
    // A new session is the group's to make whatever is loaded: its answer stays checked.
    if (SESSION_CREATE.test(path)) return undefined;
    if (this.unloadedFor(groupId)) return UNLOADABLE_NOTE;
    // A call refused in the source (an unknown session tried on purpose) is refused in the replay too.
    const wentThrough = call.status >= 200 && call.status < 300;
    if (gone && wentThrough) return GONE_NOTE;
    const busy = groupId ? this.busy.get(groupId) : undefined;
    if (busy && !isLoadCall(path) && !NOT_OF_THE_LOAD.test(path.split('?')[0]!)) return busyNote(busy);
    return undefined;
  }

  /** The session's variable, after the step that creates it when it began before the span; null: it is gone. */
  private sessionVar(sessionId: string, steps: ScenarioStep[]): string | null {
    const known = this.sessions.get(sessionId);
    if (known !== undefined) return known;
    const origin = this.deps.sessionOrigin(sessionId);
    if (!origin) {
      // Called by its own id, which names nothing in the replay: refused there as it would be here.
      this.sessions.set(sessionId, null);
      this.deps.note(
        `session ${sessionId} was created before the exported span, and neither the console nor its journal still holds it: the replay calls it by its id, which names no session there, and does not check what went through`,
      );
      return null;
    }
    const name = `session${this.sessions.size + 1}`;
    this.sessions.set(sessionId, name);
    this.sessionGroup.set(sessionId, origin.groupId);
    steps.push({
      type: 'command',
      method: 'POST',
      path: `/api/v1/groups/${origin.groupId}/playbackSession:1`,
      body: { appId: origin.appId, appContext: origin.appContext },
      save: { [name]: 'sessionId' },
    });
    this.deps.note(
      `session ${sessionId} was created before the exported span: the scenario creates it first (group ${origin.groupId})`,
    );
    return name;
  }

  private itemRef(queue: QueueRef | undefined, itemId: unknown): unknown {
    if (!queue || typeof itemId !== 'string') return itemId;
    return queueItemRef(queue, itemId, this.deps.note);
  }

  private queueOfUrl(url: string): { queue: QueueRef; rest: string } | undefined {
    const prefix = `${this.deps.cloudQueueUrl}/queues/`;
    if (!url.startsWith(prefix)) return undefined;
    const tail = url.slice(prefix.length);
    const slash = tail.indexOf('/');
    const queue = this.byId.get(slash === -1 ? tail : tail.slice(0, slash));
    return queue && { queue, rest: slash === -1 ? '' : tail.slice(slash) };
  }
}

/**
 * The group and app of a session as the journaled call that created it says, when the console no
 * longer holds it (another session took its group since, or it was evicted).
 */
/** Whether `call` loaded a player (it names a queue) and was answered 2xx. */
function loadWentThrough(call: JournaledControlCall): boolean {
  return isObject(call.body) && typeof call.body.queueBaseUrl === 'string' && call.status >= 200 && call.status < 300;
}

/**
 * Whether `call` is a load that went through with a queue token the bundle does not carry: what its
 * group's player did from then on the replay cannot do (see `unloadedGroups`). One that failed
 * fails in the replay too.
 */
export function isUncarriedLoad(call: JournaledControlCall): boolean {
  return loadWentThrough(call) && (call.body as Record<string, unknown>).httpAuthorization === UNKNOWN_TOKEN;
}

export function journaledSessionOrigin(
  calls: readonly JournalEntry[],
  sessionId: string,
): { groupId: string; appId: string; appContext: string } | undefined {
  for (const call of calls) {
    if (call.kind !== 'control' || call.sessionId !== sessionId) continue;
    const groupId = SESSION_CREATE.exec(call.path.split('?')[0]!)?.[1];
    if (!groupId || !isObject(call.body)) continue;
    const { appId, appContext } = call.body;
    if (typeof appId === 'string' && typeof appContext === 'string') return { groupId, appId, appContext };
  }
  return undefined;
}

const GONE_NOTE =
  'its session was created before the span and is gone from the console and its journal: the replay cannot make it';

const busyNote = ({ playerId, state }: BusyAtStart) =>
  `${playerId} was ${state} when the scenario began, loaded before it, and the replay's player is idle: what this call met, the bundle cannot cause`;

/** An item of a carried queue as its variable; one the queue never held stays missing in the replay too. */
export function queueItemRef(queue: QueueRef, itemId: string, note: (text: string) => void): string {
  if (queue.itemIds.has(itemId)) return `\${${queue.ref}.${itemId}}`;
  // The new queue hands out its own ids: one that was missing here must stay missing there.
  note(
    `item ${itemId} was not in queue ${queue.id} when the span began: the scenario asks for missing-${itemId}, which no queue holds`,
  );
  return `missing-${itemId}`;
}
