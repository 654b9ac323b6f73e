/**
 * Writes a repro bundle: the newest entries of a traffic filter as HAR, every fault rule, the
 * queues the traffic used (or the ones asked for) with their items, policies and reports, the
 * clock, and a scenario derived from the traffic that replays it on another console.
 *
 * Like any admin call it must not hold the other listeners up (docs/contract/console.md §9): the
 * entries are read a slice of time at a time, the HAR holds the newest entries that fit in one
 * answer (the scenario is derived from them all, and a note says what the HAR left out), and a
 * queue too long to read in one go is refused, as `GET /queues/{id}` refuses it.
 */
import { BUNDLE_FORMAT, BUNDLE_VERSION, type BundleExportInput, type BundleQueue, type ReproBundle } from '../api/bundle-types.js';
import { EngineError } from '../api/errors.js';
import type { FaultRule } from '../api/fault-types.js';
import type { TrafficFilter } from '../api/traffic-types.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MAX_ITEMS_IN_QUEUE_READ } from '../cloud-queue/commands.js';
import { exportHar, HAR_EXPORT_MAX_BYTES } from '../traffic/har-export.js';
import { TRANSITIONS_KEPT_PER_PLAYER } from '../store/repositories/player-transitions.js';
import type { StoredTrafficEntry } from '../traffic/log/index.js';
import type { BundleDeps } from './deps.js';
import { deriveScenario, faultRuleInput, queueIdsUsed, type ExpectedTransition, type QueueRef, type UserTransition } from './derive-scenario.js';

export const DEFAULT_EXPORT_LIMIT = 5_000;

/** Work between yields while reading entries: short against 250 ms, long against a turn of the event loop. */
const SLICE_MS = 10;

export async function exportBundle(deps: BundleDeps, input: BundleExportInput): Promise<ReproBundle> {
  deps.recorder.flush();
  const filter: TrafficFilter = input.filter ?? {};
  const filterParts = Object.entries(filter).filter(([, value]) => value !== undefined && value !== '');
  const entries = await readSliced(deps.traffic.latestIds(filter, input.limit ?? DEFAULT_EXPORT_LIMIT), (id) => deps.traffic.get(id));
  const urls = deps.urls();
  const notes: string[] = [];

  const wanted = input.queueIds ?? queueIdsUsed(entries, urls.cloudQueue);
  const missing = wanted.filter((id) => !deps.queues.head(id));
  if (input.queueIds && missing.length) throw new EngineError('not_found', `no queue ${missing.join(', ')}`, { queueIds: missing });
  if (missing.length) {
    const shown = missing.slice(0, 10).join(', ');
    notes.push(`the traffic called queues that are not on this console (${shown}${missing.length > 10 ? `, and ${missing.length - 10} more` : ''}): not in the bundle`);
  }
  const tooLong = wanted.filter((id) => (deps.queues.head(id)?.itemCount ?? 0) > MAX_ITEMS_IN_QUEUE_READ);
  if (tooLong.length) {
    throw new EngineError(
      'invalid_input',
      `a bundle carries queues of up to ${MAX_ITEMS_IN_QUEUE_READ.toLocaleString('en-US')} items, and ${tooLong.join(', ')} ${tooLong.length === 1 ? 'has' : 'have'} more: export the traffic of another queue, or name the queues to carry with queueIds`,
      { queueIds: tooLong, maxItems: MAX_ITEMS_IN_QUEUE_READ },
    );
  }
  const queues: BundleQueue[] = wanted
    .filter((id) => deps.queues.head(id))
    .map((id, index) => {
      const view = deps.queues.get(id);
      const { type, imageUrl } = view.container;
      return {
        ref: `queue${index + 1}`,
        sourceId: view.id,
        name: view.name,
        container: imageUrl ? { type, imageUrl } : { type },
        playbackPolicies: view.playbackPolicies,
        reports: view.reports,
        items: view.items,
      };
    });
  const refs: QueueRef[] = queues.map((q) => ({
    ref: q.ref,
    id: q.sourceId,
    accessToken: deps.queues.head(q.sourceId)!.accessToken,
    itemIds: new Set(q.items.map((item) => item.id)),
  }));

  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const faults = deps.faults.list();
  const clock = deps.clock.state();
  const span = spanOf(entries);
  const transitions = allTransitions(deps);
  const derived = deriveScenario({
    entries,
    queues: refs,
    cloudQueueUrl: urls.cloudQueue,
    faults,
    userTransitions: userTransitions(transitions, span),
    expected: checkable(filterParts.length > 0, faults, entries, span, notes) ? expectedTransitions(transitions, entries, span) : [],
    sessionOrigin: (sessionId) => {
      const player = deps.players.forSession(sessionId);
      const session = player?.currentSession;
      return player && session ? { groupId: player.groupId, appId: session.appId, appContext: session.appContext } : undefined;
    },
    speed: clock.speed,
  });
  const har = await exportHar(
    entries.map((entry) => entry.id),
    (id) => byId.get(id),
    input.reveal ?? false,
    HAR_EXPORT_MAX_BYTES,
    'keepNewest',
  );
  if (har.log.entries.length < entries.length) {
    notes.push(
      `the HAR holds the newest ${har.log.entries.length.toLocaleString('en-US')} of the ${entries.length.toLocaleString('en-US')} entries (${HAR_EXPORT_MAX_BYTES / (1024 * 1024)} MB, what one answer carries without holding up the console); the scenario is derived from them all`,
    );
  }
  const exportedAt = new Date(deps.wallNow()).toISOString();
  const filterText = filterParts.map(([key, value]) => `${key}=${String(value)}`).join(', ');
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    exportedAt,
    source: { console: urls.console, control: urls.control, cloudQueue: urls.cloudQueue },
    filter,
    clock,
    faults: faults.map(faultRuleInput),
    queues,
    scenario: {
      name: input.name ?? `Repro ${exportedAt.slice(0, 19).replace('T', ' ')}`,
      description: `Replays ${entries.length} traffic entries${filterText ? ` (${filterText})` : ''} exported from ${urls.console} at ${exportedAt}.`,
      steps: derived.steps,
    },
    notes: [...notes, ...derived.notes],
    har,
  };
}

type StoredTransitions = ReturnType<typeof allTransitions>;

/** Every player's recorded transitions, oldest first. */
function allTransitions(deps: BundleDeps) {
  return deps.players
    .all()
    .flatMap((player) => deps.store.playerTransitions.recent(player.id, TRANSITIONS_KEPT_PER_PLAYER))
    .sort((a, b) => a.seq - b.seq);
}

/** The engine times the exported traffic ran between (null: no traffic). */
interface Span {
  from: number;
  to: number;
}

function spanOf(entries: readonly { at: number }[]): Span | null {
  if (entries.length === 0) return null;
  return { from: entries.reduce((min, e) => Math.min(min, e.at), Infinity), to: entries.reduce((max, e) => Math.max(max, e.at), -Infinity) };
}

const within = (span: Span | null, at: number): boolean => span !== null && at >= span.from && at <= span.to;

/** The user actions the players recorded while the exported traffic ran, oldest first. */
function userTransitions(transitions: StoredTransitions, span: Span | null): UserTransition[] {
  return transitions.filter((t) => t.cause === 'user' && within(span, t.at)).map(({ playerId, at, event }) => ({ playerId, at, event }));
}

/**
 * Whether the replay can be expected to do what the players did. Not when a filter left out
 * traffic (the commands that drove a player may not be replayed), nor when a rule's draws or hits
 * began before the exported traffic (the replay's rule starts afresh): said in the notes.
 */
function checkable(filtered: boolean, faults: readonly FaultRule[], entries: readonly StoredTrafficEntry[], span: Span | null, notes: string[]): boolean {
  if (filtered) {
    notes.push('the export is filtered: the scenario does not check the players\u2019 transitions (an unfiltered export does)');
    return false;
  }
  const first = span?.from ?? Infinity;
  const hitsInExport = (id: string) => entries.filter((e) => e.fault?.ruleId === id).length;
  const early = faults.filter((rule) => rule.createdAt < first && (rule.probability !== undefined || rule.hits !== hitsInExport(rule.id)));
  if (early.length > 0) {
    notes.push(`fault rules hit or drawn before the exported traffic (${early.map((r) => r.label ?? r.id).join(', ')}) start afresh in the replay: the scenario does not check the players\u2019 transitions`);
    return false;
  }
  return true;
}

/**
 * What the replay must do again: the transitions the exported answers caused, and the commands and
 * user actions while the traffic ran. Timer transitions are left out: they follow from those, and
 * where an export starts mid-playback they belong to what came before.
 */
function expectedTransitions(transitions: StoredTransitions, entries: readonly StoredTrafficEntry[], span: Span | null): ExpectedTransition[] {
  const requestIds = new Set(entries.flatMap((e) => (e.requestId ? [e.requestId] : [])));
  return transitions
    .filter((t) => (t.requestId !== null && requestIds.has(t.requestId)) || ((t.cause === 'user' || t.cause === 'command') && within(span, t.at)))
    .map(({ playerId, at, transition }) => ({ playerId, at, transition }));
}

/** The entries `ids` names, oldest first, read a slice of time at a time; one dropped meanwhile is left out. */
async function readSliced(ids: readonly number[], read: (id: number) => StoredTrafficEntry | undefined): Promise<StoredTrafficEntry[]> {
  const entries: StoredTrafficEntry[] = [];
  let sliceStart = performance.now();
  for (const id of ids) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
    const entry = read(id);
    if (entry) entries.push(entry);
  }
  return entries;
}
