/**
 * Writes a repro bundle: the newest entries of a traffic filter as HAR, the queues the span used
 * as they were when it began, the fault rules as they were then, the clock, and a scenario built
 * from the engine journal: every state-changing call of the span, in order, on the engine clock
 * (journal-scenario.ts). The traffic is the evidence; the journal is what replays.
 *
 * Like any admin call it must not hold the other listeners up (docs/contract/console.md §9): the
 * entries are read a slice of time at a time, the HAR holds the newest entries that fit in one
 * answer (a note says what it left out), and a queue too long to read in one go is refused, as
 * `GET /queues/{id}` refuses it.
 */
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  MAX_ITEMS_IN_BUNDLE_QUEUE,
  type BundleExportInput,
  type BundleQueue,
  type ReproBundle,
} from '../api/bundle-types.js';
import { EngineError } from '../api/errors.js';
import type { FaultRule } from '../api/fault-types.js';
import { QUEUE_EDIT_COMMANDS } from '../api/scenario-types.js';
import { TRAFFIC_EXPORT_MAX, type TrafficFilter, type TrafficSummary } from '../api/traffic-types.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { JOURNAL_CAPACITY } from '../journal/journal.js';
import type { JournalEntry, QueueSnapshot } from '../journal/types.js';
import { exportHar, HAR_EXPORT_MAX_BYTES } from '../traffic/har-export.js';
import { TRANSITIONS_KEPT_PER_PLAYER } from '../store/repositories/player-transitions.js';
import { newestRows, type StoredTrafficEntry } from '../traffic/log/index.js';
import type { BundleDeps } from './deps.js';
import { journaledSessionOrigin } from './control-steps.js';
import { playerRequestMet, type PlayerRequestMet } from './divergence.js';
import { faultRuleInput, scenarioFromJournal, type Cut, type SpanRequest } from './journal-scenario.js';
import { sinceConsoleStart } from './console-start.js';
import { queueIdsCalled } from './queues-used.js';
import { controlAnsweredBy, SpanEntries } from './span-entries.js';
import { reachBack } from './reach-back.js';

export const DEFAULT_EXPORT_LIMIT = 5_000;

/** Work between yields while reading entries: short against 250 ms, long against a turn of the event loop. */
const SLICE_MS = 10;

export async function exportBundle(deps: BundleDeps, input: BundleExportInput): Promise<ReproBundle> {
  deps.recorder.flush();
  const filter: TrafficFilter = input.filter ?? {};
  const filterParts = Object.entries(filter).filter(([, value]) => value !== undefined && value !== '');
  const filtered = filterParts.length > 0;
  // A text filter's search runs a slice at a time (traffic/log/search.ts); the ids are then read at once.
  await deps.traffic.searched(filter);
  const urls = deps.urls();
  const limit = input.limit ?? DEFAULT_EXPORT_LIMIT;
  // How many the filter holds: a span cut at the limit says so (audit X11: 12 h of three players
  // came as the newest 5,000 entries, 6.5 h of it, without a word).
  const matching = deps.traffic.page(filter, 0, 0).total;
  const { ids, before } = await spanIds(deps, filter, limit, matching);
  const span = await readSliced(
    ids,
    (id) => deps.traffic.get(id, input.reveal ?? false),
    new SpanEntries(urls.cloudQueue),
  );
  const { entries } = span;
  const notes: string[] = [];
  const clock = deps.clock.state();

  // The span: from the first exported entry to the last (an unfiltered export: to now, so that
  // what the last calls set going plays out as it did).
  // Each step below over the span (its journal and transitions, the queues its entries called, the
  // scenario) takes 40–90 ms at the 100,000-entry cap: a turn between them, or together they held
  // every listener 300 ms (audit).
  await nextTurn();
  const journal = deps.journal.entries();
  const journaledUpTo = journal.at(-1)?.seq ?? -1;
  const transitions = allTransitions(deps).map((t) =>
    // A row recorded before the start at the start's own instant (the clock stopped across a
    // restart) is before it: a millisecond earlier, every comparison with the start reads it so.
    // Read at the instant, a bundle expected a load the journal never saw (restart-round-trip.test.ts).
    t.seq <= deps.journal.startedAfterTransition && t.at >= deps.journal.startedAt
      ? { ...t, at: deps.journal.startedAt - 1 }
      : t,
  );
  const first = entries.length ? span.earliest : (journal[0]?.at ?? clock.now);
  const to = filtered ? Math.max(span.latest, first) : clock.now;
  // A replay starts with its players idle: the span reaches back to the call that loaded each
  // player busy at its first entry (reach-back.ts). The HAR keeps the entries asked for.
  const reached = reachBack(transitions, [...journal, ...deps.journal.pendingEntries()], first, to);
  // A span that began before the console started begins at the start (console-start.ts).
  const sinceStart = sinceConsoleStart(transitions, reached, to, deps.journal.startedAt);
  const from = sinceStart.from;
  if (from === reached && from < first)
    notes.push(
      `the span reaches back to ${new Date(from).toISOString()} (engine time), to the load of a player busy at its first entry: a replay starts with its players idle`,
    );
  const calls: JournalEntry[] = journal.filter((call) => call.at >= from && call.at <= to);
  const cuts: Cut[] = [];
  const lost = deps.journal.lostBefore();
  notes.push(...sinceStart.notes);
  if (lost !== null && lost >= from)
    cuts.push({
      at: from,
      playerId: '*',
      why: `the journal keeps the newest ${JOURNAL_CAPACITY.toLocaleString('en-US')} calls, and older ones of the span were dropped`,
    });
  // A call still waiting (a skip for its retry, a load for its window) has no outcome yet, while
  // what it set going is already in the transitions: it is replayed as it began, its outcome not
  // checked. One that cannot be (nothing kept of it) cuts the checks from when it began.
  for (const call of deps.journal.pending()) {
    if (call.at <= to && !call.entry)
      cuts.push({
        at: call.at,
        playerId: '*',
        why: `${call.what} had not ended when the bundle was exported, and nothing of it was kept to replay`,
      });
  }
  const waiting = deps.journal.pendingEntries().filter((call) => call.at >= from && call.at <= to);
  if (waiting.length) {
    calls.push(...waiting);
    calls.sort((a, b) => a.seq - b.seq);
  }

  await nextTurn();
  const wanted = input.queueIds ?? [...new Set([...span.queueIds, ...queueIdsCalled(calls, urls.cloudQueue)])];
  const missing = wanted.filter((id) => !deps.queues.head(id));
  if (input.queueIds && missing.length)
    throw new EngineError('not_found', `no queue ${missing.join(', ')}`, { queueIds: missing });
  if (missing.length) {
    const shown = missing.slice(0, 10).join(', ');
    notes.push(
      `the span called queues that are not on this console (${shown}${missing.length > 10 ? `, and ${missing.length - 10} more` : ''}): not in the bundle`,
    );
  }
  const tooLong = wanted.filter((id) => (deps.queues.head(id)?.itemCount ?? 0) > MAX_ITEMS_IN_BUNDLE_QUEUE);
  if (tooLong.length) {
    throw new EngineError(
      'invalid_input',
      `a bundle carries queues of up to ${MAX_ITEMS_IN_BUNDLE_QUEUE.toLocaleString('en-US')} items, and ${tooLong.join(', ')} ${tooLong.length === 1 ? 'has' : 'have'} more: export the traffic of another queue, or leave ${tooLong.length === 1 ? 'it' : 'them'} out by naming the queues to carry with queueIds (a load of a queue left out is replayed, and fails, on a queue of none)`,
      { queueIds: tooLong, maxItems: MAX_ITEMS_IN_BUNDLE_QUEUE },
    );
  }
  const queues: BundleQueue[] = wanted
    .filter((id) => deps.queues.head(id))
    .map((id, index) => {
      const view = queueAtStart(deps, id, calls, cuts, journaledUpTo);
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

  await nextTurn();
  // A filtered export reads the log's newest rows, once, for what its rules met.
  let newestRead: TrafficSummary[] | undefined;
  const newest = (): TrafficSummary[] => (newestRead ??= newestRows(deps.traffic, {}));
  const built = scenarioFromJournal({
    calls,
    from,
    to,
    queues: queues.map((q) => ({ ref: q.ref, id: q.sourceId, itemIds: new Set(q.items.map((item) => item.id)) })),
    cloudQueueUrl: urls.cloudQueue,
    startRules: rulesAtStart(deps, from, calls, span.faultHits),
    transitions,
    requests: spanRequests(deps, from, to),
    checkable: !filtered,
    cuts,
    itemNow: (playerId) =>
      deps.players
        .all()
        .find((player) => player.id === playerId)
        ?.status().itemId ?? null,
    // A filtered export's entries leave out requests its rules met: the log's newest rows, all of them.
    playerRequests: filtered ? playerRequestsOf(newest()) : span.playerRequests,
    // The same for the control calls rules answered: a filter may leave out the one a rule spent itself on (review).
    controlAnswered: filtered ? newest().flatMap((row) => controlAnsweredBy(row) ?? []) : span.controlAnswered,
    groupOf: (playerId) => deps.players.all().find((player) => player.id === playerId)?.groupId,
    crossings: deps.journal.requestCrossings(),
    requestsBegunAtEnd: deps.journal.requestsBegun(),
    sessionOrigin: (sessionId) => {
      const player = deps.players.forSession(sessionId);
      const session = player?.currentSession;
      return player && session
        ? { groupId: player.groupId, appId: session.appId, appContext: session.appContext }
        : journaledSessionOrigin(journal, sessionId);
    },
  });
  if (filtered)
    notes.push(
      'the export is filtered: the scenario does not check the players\u2019 transitions (an unfiltered export does)',
    );
  // Nothing checked and nothing said why: a span of the console's own calls alone (the newest few
  // entries of a `limit`, the admin API's among them). `run` refuses such a file pointing at the
  // notes, which were empty (audit).
  if (notes.length === 0 && built.notes.length === 0 && !built.steps.some((step) => step.type === 'expect'))
    notes.push(
      `the span (${entries.length.toLocaleString('en-US')} entries${input.limit === undefined ? '' : `, the newest ${input.limit.toLocaleString('en-US')}, the console\u2019s own admin calls among them`}) holds no player\u2019s transition or call to check: export a span that begins before the load`,
    );
  if (before > 0)
    notes.push(
      `the span is the newest ${limit.toLocaleString('en-US')} of the ${matching.toLocaleString('en-US')} entries ${filtered ? 'the filter holds' : 'in the traffic log'}${input.limit === undefined ? ' (the default limit)' : ''}: ${limit < TRAFFIC_EXPORT_MAX ? `give a larger limit (up to ${TRAFFIC_EXPORT_MAX.toLocaleString('en-US')}) or a narrower filter` : 'give a narrower filter'} for more of it`,
    );
  await nextTurn();
  // An earlier export's answer is a bundle, HAR and all, not traffic of the span: kept, each bundle
  // held every one before it, and five exports of one session grew from 199 KB to 606 KB (outside
  // audit of 7 December 2026). A call to the admin API is logged when it did not come from the UI.
  const places = Array.from(entries.keys()).filter((place) => !isBundleExport(entries[place]!));
  if (places.length < entries.length)
    notes.push(
      `the HAR leaves out ${entries.length - places.length === 1 ? 'an earlier export' : `${entries.length - places.length} earlier exports`} of a bundle (POST /admin/api/bundles/export): each answer is a bundle, not traffic of the span`,
    );
  // Read by place, not by id: a map of the 100,000 entries, made at once, held the loop 130–180 ms.
  const har = await exportHar(
    places,
    (place) => entries[place],
    input.reveal ?? false,
    HAR_EXPORT_MAX_BYTES,
    'keepNewest',
  );
  if (har.log.entries.length < places.length) {
    notes.push(
      `the HAR holds the newest ${har.log.entries.length.toLocaleString('en-US')} of the ${places.length.toLocaleString('en-US')} entries (${HAR_EXPORT_MAX_BYTES / (1024 * 1024)} MB, what one answer carries without holding up the console)`,
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
    // The rules live at export, which an import adds for people to see; the scenario starts from
    // the rules as they were when the span began, and replays every change after that.
    faults: deps.faults.list().map(faultRuleInput),
    queues,
    scenario: {
      name: input.name ?? `Repro ${exportedAt.slice(0, 19).replace('T', ' ')}`,
      description: `Replays ${calls.length} journaled calls over ${entries.length} traffic entries${filterText ? ` (${filterText})` : ''} exported from ${urls.console} at ${exportedAt}.`,
      steps: built.steps,
    },
    notes: [...notes, ...built.notes],
    har,
  };
}

/** The players' own requests of the span (target `player`), oldest first: what `requests` expectations are made of. */
function spanRequests(deps: BundleDeps, from: number, to: number): SpanRequest[] {
  deps.recorder.flush();
  return (
    newestRows(deps.traffic, { target: 'player' })
      .filter((row) => row.playerId !== null && row.at >= from && row.at <= to)
      .map((row) => ({ ...row, playerId: row.playerId! }))
      // By their start, as a replay reads them (the log holds them as they ended).
      .sort((a, b) => a.at - b.at || a.id - b.id)
  );
}

/** The players' requests among `rows`, with the rule that answered each. */
function playerRequestsOf(rows: readonly TrafficSummary[]): PlayerRequestMet[] {
  return rows.flatMap((row) => playerRequestMet(row) ?? []);
}

/** Every player's recorded transitions, oldest first. */
function allTransitions(deps: BundleDeps) {
  return deps.players
    .all()
    .flatMap((player) => deps.store.playerTransitions.recent(player.id, TRANSITIONS_KEPT_PER_PLAYER))
    .sort((a, b) => a.seq - b.seq);
}

/** A call to the admin API that exported a bundle: its answer holds one (a refused one's, a reason only). */
const isBundleExport = (entry: Pick<StoredTrafficEntry, 'target' | 'method' | 'path' | 'status'>): boolean =>
  entry.target === 'console' &&
  entry.method === 'POST' &&
  entry.status === 200 &&
  /^\/admin\/api\/bundles\/export(?:\?|$)/.test(entry.path);

/** A queue as it was when the span began: as before its first edit of the span, else as it is. */
function queueAtStart(
  deps: BundleDeps,
  id: string,
  calls: readonly JournalEntry[],
  cuts: Cut[],
  journaledUpTo: number,
): QueueSnapshot {
  const editOf = (c: JournalEntry) =>
    c.kind === 'command' &&
    c.ok &&
    (QUEUE_EDIT_COMMANDS as readonly string[]).includes(c.name) &&
    (c.input as { id?: unknown } | null)?.id === id;
  // An edit made while the export took its turns is after the span: the queue as it was before it
  // is the queue as the span left it (review).
  const edit = calls.find(editOf) ?? deps.journal.entries().find((c) => c.seq > journaledUpTo && editOf(c));
  if (edit?.kind === 'command') {
    if (edit.queueBefore) return edit.queueBefore;
    cuts.push({
      at: edit.at,
      playerId: '*',
      why: `queue ${id} was edited in the span, and the journal does not hold it as it was before (too large to copy)`,
    });
  }
  const { name, container, playbackPolicies, reports, items } = deps.queues.get(id);
  return { id, name, container, playbackPolicies, reports, items };
}

/**
 * The rules as they stood when the span began, with the hits they had then: as the journal began,
 * for a span that begins there; else their hits now (or when they were removed) less those the
 * span's traffic shows.
 */
function rulesAtStart(
  deps: BundleDeps,
  from: number,
  calls: readonly JournalEntry[],
  /** How many of the span's entries each rule answered, by rule id. */
  hitsInSpan: ReadonlyMap<string, number>,
): FaultRule[] {
  const asStarted = from <= deps.journal.startedAt ? deps.journal.rulesAtStart() : null;
  if (asStarted) return asStarted;
  const first = calls[0];
  const start = first ? deps.journal.rulesBefore(first.seq) : deps.faults.list();
  const latest = new Map(deps.faults.list().map((rule) => [rule.id, rule]));
  for (const call of calls)
    if (call.kind === 'command') for (const rule of call.removed ?? []) latest.set(rule.id, rule);
  return start.map((rule) => {
    const hits = Math.max(rule.hits, (latest.get(rule.id)?.hits ?? rule.hits) - (hitsInSpan.get(rule.id) ?? 0));
    return { ...rule, hits, spent: rule.times !== undefined && hits >= rule.times };
  });
}

/** Summaries read in one turn while a span's start is found: 10,000 of them took 2–34 ms (the first, cold). */
const SUMMARY_SLICE = 10_000;

/**
 * The ids of the span, oldest first: the newest `limit` entries of the filtered set, with the
 * answered exports of a bundle among them not counted (the HAR leaves them out, and counted they
 * made repeated `{"limit": 3}` exports hold 3, 2, then 1 entries). Found from the newest back, by
 * the entries' summaries, at most as many as are still wanted a slice; `before`: how many of the
 * filtered set the span leaves out.
 */
async function spanIds(
  deps: Pick<BundleDeps, 'traffic'>,
  filter: TrafficFilter,
  limit: number,
  total: number,
): Promise<{ ids: number[]; before: number }> {
  const slices: number[][] = [];
  let start = total;
  let counted = 0;
  // The ids read so far are older than this one: entries the log let go meanwhile move the places
  // of the rest down, and the slice read next would hold some of them again.
  let oldest = Infinity;
  while (start > 0 && counted < limit) {
    const from = Math.max(0, start - Math.min(SUMMARY_SLICE, limit - counted));
    const rows = deps.traffic.page(filter, from, start - from).rows.filter((row) => row.id < oldest);
    counted += rows.filter((row) => !isBundleExport(row)).length;
    slices.unshift(rows.map((row) => row.id));
    oldest = rows[0]?.id ?? oldest;
    start = from;
    if (start > 0 && counted < limit) await nextTurn();
  }
  return { ids: slices.flat(), before: start };
}

/** The entries `ids` names, oldest first, read into `span` a slice of time at a time; one dropped meanwhile is left out. */
async function readSliced(
  ids: readonly number[],
  read: (id: number) => StoredTrafficEntry | undefined,
  span: SpanEntries,
): Promise<SpanEntries> {
  let sliceStart = performance.now();
  for (const id of ids) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
    const entry = read(id);
    if (entry) span.add(entry);
  }
  return span;
}
