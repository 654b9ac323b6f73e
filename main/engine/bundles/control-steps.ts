/**
 * A journaled control API call as a scenario `command` step, with nothing console-specific left
 * literal: a session id becomes `${sessionN}` (saved from the answer that created it), a queue of
 * this console `${<ref>.url}`, its token `${<ref>.token}` and its items `${<ref>.<itemId>}`.
 */
import { isObject } from '../api/is-object.js';
import type { ScenarioStep } from '../api/scenario-types.js';
import { TOKEN_REF, UNKNOWN_TOKEN } from '../journal/secrets.js';
import type { JournaledControlCall } from '../journal/types.js';

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

export interface ControlStepDeps {
  queues: readonly QueueRef[];
  cloudQueueUrl: string;
  /** The group and app of a session created before the span, if it is still live. */
  sessionOrigin(sessionId: string): { groupId: string; appId: string; appContext: string } | undefined;
  note(text: string): void;
}

export class ControlSteps {
  private readonly sessions = new Map<string, string>();
  private readonly sessionQueue = new Map<string, QueueRef>();
  /**
   * Whether the last load that went through carried a token of no queue of this console: the
   * bundle does not carry it, so the replay's load is refused, and what follows (the session's
   * calls, its group's, a player's buttons) meets nothing loaded; which player the session moved,
   * the journal does not say. None of their outcomes is checked until a load the bundle can make
   * goes through: a bundle never expects what it cannot cause, and each was a FAIL of the replay,
   * not of the console (audit). A load that failed in the source (a wrong token tried on purpose)
   * fails in the replay too, and stays checked.
   */
  unloaded = false;
  private readonly byId: Map<string, QueueRef>;

  constructor(private readonly deps: ControlStepDeps) {
    this.byId = new Map(deps.queues.map((q) => [q.id, q]));
  }

  /** The steps of one call: the call, after the session it needs if that began before the span. */
  stepsOf(call: JournaledControlCall): ScenarioStep[] {
    const steps: ScenarioStep[] = [];
    let path = call.path.replace(/^\/control\/api\/v1\//, '/api/v1/');
    const inPath = SESSION_IN_PATH.exec(path);
    let sessionId: string | undefined;
    if (inPath) {
      sessionId = inPath[2]!;
      path = `${inPath[1]}\${${this.sessionVar(sessionId, steps)}}${inPath[3]}`;
    }
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
      if (typeof record.queueBaseUrl === 'string' && call.status >= 200 && call.status < 300)
        this.unloaded = record.httpAuthorization === UNKNOWN_TOKEN;
      if (typeof record.httpAuthorization === 'string') {
        const owner = TOKEN_REF.exec(record.httpAuthorization)?.[1];
        const ref = owner ? this.byId.get(owner) : undefined;
        if (ref) record.httpAuthorization = `Bearer \${${ref.ref}.token}`;
      }
      if ('itemId' in record) record.itemId = this.itemRef(queue, record.itemId);
    }
    // A new session is the group's to make whatever is loaded: its answer stays checked.
    const step: ScenarioStep =
      this.unloaded && !SESSION_CREATE.test(path)
        ? { type: 'command', method: 'POST', path, outcomeNotChecked: UNLOADABLE_NOTE }
        : { type: 'command', method: 'POST', path, expectStatus: call.status };
    if (body !== undefined) step.body = body;
    if (SESSION_CREATE.test(path) && call.sessionId) {
      if (!this.sessions.has(call.sessionId)) this.sessions.set(call.sessionId, `session${this.sessions.size + 1}`);
      step.save = { [this.sessions.get(call.sessionId)!]: 'sessionId' };
    }
    steps.push(step);
    return steps;
  }

  private sessionVar(sessionId: string, steps: ScenarioStep[]): string {
    let name = this.sessions.get(sessionId);
    if (name) return name;
    name = `session${this.sessions.size + 1}`;
    this.sessions.set(sessionId, name);
    const origin = this.deps.sessionOrigin(sessionId);
    if (origin) {
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
    } else {
      this.deps.note(
        `session ${sessionId} was created before the exported span and is gone: the steps that use it will fail`,
      );
    }
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

/** An item of a carried queue as its variable; one the queue never held stays missing in the replay too. */
export function queueItemRef(queue: QueueRef, itemId: string, note: (text: string) => void): string {
  if (queue.itemIds.has(itemId)) return `\${${queue.ref}.${itemId}}`;
  // The new queue hands out its own ids: one that was missing here must stay missing there.
  note(
    `item ${itemId} was not in queue ${queue.id} when the span began: the scenario asks for missing-${itemId}, which no queue holds`,
  );
  return `missing-${itemId}`;
}
