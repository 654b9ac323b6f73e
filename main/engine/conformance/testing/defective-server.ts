/**
 * A small cloud queue server for the suite's own tests, right by default and wrong in exactly the
 * ways its defect flags say: the yardstick each case is proven against (a defect fails its case,
 * and no other). Plain node:http, a plain array queue, one access token.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';

/** Each defect, and the one case it must fail. */
export const DEFECTS = {
  /** Answers /context 404. */
  noContext: 'context',
  /** Answers an unknown itemId with a window from the first item. */
  unknownItemFromStart: 'item-window.unknown-item',
  /** Answers an unknown itemId 404 for skipToItem only, other reasons with a window from the first item. */
  unknownItemOnlyForSkipToItem: 'item-window.unknown-item',
  /** Answers an unknown itemId sent with a load with a window from the first item: a stale deep link plays other tracks. */
  unknownItemOnLoad: 'item-window.unknown-item',
  /** Answers a load that names an item it has with a window from the first item: the player plays other tracks. */
  loadIgnoresKnownItem: 'item-window.reasons',
  /** Sends one item more than asked on each side. */
  moreThanAsked: 'item-window.size-limits',
  /** Keeps windows full: the previous slots it cannot fill near the queue's start become upcoming items. */
  padsAtQueueStart: 'item-window.size-limits',
  /** Takes a negative size as 0. */
  acceptsNegativeSize: 'item-window.negative-size',
  /** Takes 1.5 as 1 and NaN as the default. */
  acceptsNonIntegerSize: 'item-window.non-integer-size',
  /** Refuses a negative size only when the reason is skipToItem; reads it as 0 for the others. */
  negativeSizeRefusedOnlyForSkipToItem: 'item-window.negative-size',
  /** Refuses a size that is no whole number only when the reason is skipToItem; reads 1.5 as 1 for the others. */
  nonIntegerSizeRefusedOnlyForSkipToItem: 'item-window.non-integer-size',
  /** Takes any Bearer token (none is still 401). */
  acceptsWrongToken: 'auth.wrong-token',
  /** Answers a wrong Bearer token 403 instead of 401 (none is still 401). */
  forbidsWrongToken: 'auth.wrong-token',
  /** Takes reports with any Authorization or none. */
  reportsWithoutAuth: 'auth.wrong-token',
  /** Answers GET /context and /version without an Authorization (a wrong one is still 401). */
  contextWithoutAuth: 'auth.wrong-token',
  /** Serves a window asked with an itemId whatever the Authorization, or none (a skip's handler that checks no token). */
  itemIdWindowsWithoutAuth: 'auth.wrong-token',
  /** Serves a window asked with reason=pause whatever the Authorization, or none (a pause's handler that checks no token). */
  pauseWindowsWithoutAuth: 'auth.wrong-token',
  /**
   * Serves windows of every reason but load and skipToItem when no Authorization came (a wrong one
   * is still 401): handlers that check the token only when one is sent (outside audit).
   */
  windowsWithoutAuthWhenNoneSent: 'auth.wrong-token',
  /** Takes final reports with any Authorization or none (updates still need the token). */
  finalReportsWithoutAuth: 'auth.wrong-token',
  /** Answers a window around an itemId the queue does not have 404 before it reads the Authorization (outsider x11). */
  unknownItemBeforeAuth: 'auth.wrong-token',
  /** Has no /version: 404 whatever the Authorization (outsider w26: one defect, one case failed). */
  noVersion: 'version',
  /** Refuses the final report of a track a skip ended (its `skip`, or from v2.2 `actions` with a skip) with 400. */
  refusesSkipFinal: 'time-played.final',
  /** Tracks without mediaUrl. */
  tracksWithoutMediaUrl: 'item-window.items',
  /** includesBeginningOfQueue true on every window. */
  beginningAlwaysTrue: 'item-window.queue-ends',
  /** Centres its window without itemId on item 10 and says includesBeginningOfQueue false on every window. */
  centredBeginningNeverTrue: 'item-window.queue-ends',
  /** includesEndOfQueue false on every window. */
  endNeverTrue: 'item-window.queue-ends',
  /** includesEndOfQueue false on a window asked with upcomingWindowSize 0, its last item the queue's or not (outside audit). */
  endFalseWithoutUpcoming: 'item-window.queue-ends',
  /** includesBeginningOfQueue false on a window asked with an itemId and previousWindowSize 0 (outside audit). */
  beginningFalseWithoutPrevious: 'item-window.queue-ends',
  /** The item at position 21 has the id of the one at position 4. */
  duplicateIds: 'item-window.ids',
  /** Refuses reason=load+queueCompleted with 400. */
  refusesCombinedReason: 'item-window.reasons',
  /** For skipNext, skipPrev, pause, play and resume, ignores the sizes: 5 before, 10 after. */
  reasonsIgnoreSizes: 'item-window.reasons',
  /**
   * For resume, gives the window's last item the id of the one before it, at the size asked: the
   * player would hold one item in two places (outsider y10, which read as one item too many).
   */
  repeatsItemOnResume: 'item-window.reasons',
  /** For queueCompleted, says includesEndOfQueue false even at the queue's end. */
  queueCompletedNeverEnds: 'item-window.reasons',
  /** Refuses final reports with 400. */
  refusesFinalReport: 'time-played.final',
  /** GET /version answers another version than the windows carry. */
  versionDisagrees: 'version',
  /** Windows without queueVersion. */
  noQueueVersion: 'item-window.queue-version',
  /** Answers everything 500 once reports have ended six different tracks: it dies six tracks into an album. */
  diesAfterSixTracks: 'play-through',
  /** Never answers (holds the connection open) once reports have ended six different tracks. */
  hangsAfterSixTracks: 'play-through',
  /** Serves only the item asked for (or the first) and the one after it: a listener cannot skip back. */
  servesCurrentAndNext: 'play-through',
  /**
   * Windows asked around an item start at it, whatever previousWindowSize asked (its flags right):
   * a listener cannot skip back past its load's window.
   */
  withholdsEarlier: 'play-through',
  /** In windows asked with an itemId, the ids from the 11th item on name other tracks than elsewhere. */
  reusesIds: 'item-window.stable-identity',
} as const;

export type Defect = keyof typeof DEFECTS;

export interface DefectiveServerOptions {
  items?: number;
  defects?: readonly Defect[];
  /** Reads no previousWindowSize in a window asked without itemId (it starts at the first item): right. */
  ignoresPreviousWithoutItem?: boolean;
  /** The version segment of its base URL (`v2.0`: `/q/v2.0/`); none by default. */
  version?: string;
  /** Refuses 400 a report item without the fields of v2.3 (`contextVersion`, `reportId`): a strict v2.3 server, a right one. */
  asksV23ReportFields?: boolean;
  /** Ms the first GET /version waits before it answers. */
  versionDelayMs?: number;
  /** Answers 200 with this body to reports, instead of 204. */
  reportAnswer?: string;
  /** Each track's durationMillis (default 180,000): an album of short tracks. */
  trackMillis?: number;
  /** The server's current item (0-based): the window without itemId is centred on it, as a server may. */
  currentItem?: number;
  /** Answers the first window a player asks with a queueVersion 503, without Retry-After. */
  busyOnceWithoutRetryAfter?: boolean;
  /** Answers the first GET /version 503 with Retry-After: 1 (warming up), then as usual. */
  versionBusyOnce?: boolean;
  /**
   * Says `limitedSkips` in its context and takes this many skips (skipNext, skipPrev) in all, then
   * refuses each 403 with X-Rejected-Reason: a server's right (platform.md §4.3, §7.1).
   */
  skipBudget?: number;
  /**
   * Names every item anew in each window (`item-3-r7` in the 7th), still taking any earlier name as
   * an itemId: ids that do not stay where they are. Not one of DEFECTS: it fails more than one case.
   */
  renamesEveryWindow?: boolean;
  /** A new queueVersion in every window (`v7` in the 7th), as a server that does not keep its version. */
  newVersionEveryWindow?: boolean;
  /** Each window's media from another host of its CDN (`edge-2.media.example`), signed anew: right. */
  rotatesMediaHosts?: boolean;
  /**
   * A 503 with Retry-After: 1 on this many of the play-through's loads, on its window or on its
   * context, as a server busy for a moment (or for good, with a count past the retries).
   */
  busyOnPlayThroughLoad?: { times: number; on: 'itemWindow' | 'context'; retryAfter?: string };
  /** One item more than asked after the item, when upcomingWindowSize is this or more. */
  oneMoreFromUpcoming?: number;
  /** Headers every answer carries besides its content-type. */
  extraHeaders?: Record<string, string>;
  /**
   * Says includesEndOfQueue true on a window that stops one item short of the last, too. Not one of
   * DEFECTS: the walk fails it on a queue it walks to the end, the play-through on a longer one.
   */
  endOneEarly?: boolean;
  /**
   * Each window the walk (`item-window.queue-ends`) asks is answered this late: the walk's 10 s
   * run out after a few windows, and a queue of thousands is past the walk as one of 20,000 items
   * is, without a play of 20,000 tracks (tens of seconds of CPU) to get there.
   */
  walkAnswersAfterMs?: number;
  /** Each request of the play-through is answered this late: a slow server, whose play the run's time cuts short. */
  playAnswersAfterMs?: number;
  /** From this poll on, each GET /version answers a version never seen, and the windows carry the latest: a version from a clock. */
  versionMovesFromPoll?: number;
  /** GET /version answers "v-stale" after this many polls, while the windows keep "v1". */
  versionStaleAfter?: number;
  /** From this window on (1-based), each window carries a new queueVersion with nothing edited. */
  newVersionFromWindow?: number;
  /**
   * From this window on (1-based) the queue was edited once: its windows carry "v2", and GET /version
   * too (`versionLagMs` after the edit, as a replica catches up), or (`versionLeftBehind`) keeps
   * answering "v1". The edit may change one item's track: its
   * name, or its media's path (`item-3.mp3` → `path`).
   */
  editedFromWindow?: {
    window: number;
    versionLeftBehind?: boolean;
    versionLagMs?: number;
    track?: { item: string; name?: string; path?: string };
  };
  /** The play-through's windows that hold the last item say includesEndOfQueue false. */
  endFalseForPlayer?: boolean;
  /**
   * From this window on (1-based) the queue was edited once, validly (its version "v2", /version
   * too), and from then on every window that holds the last item says includesEndOfQueue false.
   */
  endFalseOnceEditedAt?: number;
  /** At the walk's window of this number (1-based), the queue's last item is removed, validly: "v2" from then on, /version too. */
  removesLastInWalk?: number;
  /** At `item-window.reasons`' window of this number (1-based), three items are appended, validly: "v2" from then on. */
  appendsInReasons?: number;
  /** Once the final report of this item comes, it and every item before it are removed, validly: "v2" from then on. */
  removesPlayedThrough?: string;
  /** At `item-window.centred`'s first window, an item (`item-0`) is put before the first, validly: "v2" from then on. */
  prependsInCentred?: boolean;
  /** At the window of this number (1-based) the case `caseId` asks, `item` is removed, validly: "v2" from then on, /version too. */
  removesInCase?: { caseId: string; window: number; item: string };
  /** Once the final report of `final` comes, `item` is removed, validly: "v2" from then on. */
  removesOnFinal?: { final: string; item: string };
  /** Once the final report of this item comes, every item is removed, validly: "v2" from then on. */
  emptiesOnFinal?: string;
  /** Once the final report of this item comes, two items are appended under the same version: a queue changed without a new queueVersion. */
  appendsUnderOneVersionOnFinal?: string;
  /** Every window this case asks for around an item is answered 404, though the queue holds the item. */
  forgetsInCase?: string;
  /** Right after answering the `poll`-th GET /version of case `caseId`, the queue is edited validly: windows carry a new version. */
  bumpsAfterPolls?: { caseId: string; poll: number }[];
  /**
   * The first `times` requests to `endpoint` have their connection reset once the request is in
   * (after holding it `afterMs`): no answer sent, or (`midBody`) a 200 whose body breaks off.
   */
  dropsRequests?: {
    endpoint: 'context' | 'itemWindow' | 'version' | 'timePlayed';
    times: number;
    afterMs?: number;
    midBody?: boolean;
  };
  /** The context says canSkipBack false. */
  noSkipBack?: boolean;
  /** These items carry their own policies `{canSkipBack: false}`, and a window asked around one starts at it. */
  noSkipBackItems?: string[];
  /** An itemId the queue does not have is answered 404 before the sizes are looked at. */
  looksUpItemFirst?: boolean;
  /** Characters of notes each track carries (an unknown field, as long show notes): a big item, valid. */
  itemNotes?: number;
  /** Answers 409 to a window asked with a queueVersion that is not the current one, before reading the token. */
  refusesStaleVersionFirst?: boolean;
  /** Refuses a window size of 0 with 400: the walk's own windows (0 before) are refused. */
  refusesZeroSizes?: boolean;
}

export interface DefectiveServer {
  baseUrl: string;
  authorization: string;
  /** Requests served, by endpoint. */
  requests: string[];
  /** The same requests' paths and queries, as sent. */
  urls: string[];
  /** The X-Conformance-Case each request carried, in the same order (undefined for none). */
  cases: (string | undefined)[];
  /** The X-Conformance-Case of each skip refused past `skipBudget`. */
  refusedSkips: (string | undefined)[];
  /** Windows answered so far (what `…FromWindow` options count). */
  windowsServed(): number;
  close(): Promise<void>;
}

const TOKEN = 'token-of-the-defective-server';
const REASONS = new Set([
  'load',
  'pause',
  'play',
  'queueCompleted',
  'refresh',
  'resume',
  'skipNext',
  'skipPrev',
  'skipToItem',
  'load+queueCompleted',
]);

export async function startDefectiveServer(options: DefectiveServerOptions = {}): Promise<DefectiveServer> {
  const defects = new Set(options.defects ?? []);
  const count = options.items ?? 30;
  const ids = Array.from({ length: count }, (_, i) => `item-${i + 1}`);
  let windowsServed = 0;
  const edited = () => options.endFalseOnceEditedAt !== undefined && windowsServed >= options.endFalseOnceEditedAt;
  /** When the window `editedFromWindow` names was served: the edit's moment, which GET /version may trail. */
  let editedAt: number | undefined;
  const editedOnce = () => editedAt !== undefined;
  if (defects.has('duplicateIds') && count > 20) ids[20] = ids[3]!;
  const requests: string[] = [];
  const urls: string[] = [];
  const cases: (string | undefined)[] = [];
  const refusedSkips: (string | undefined)[] = [];
  const ended = new Set<string>();
  let busy = options.busyOnceWithoutRetryAfter === true;
  let versionDelayed = false;
  let versionBusy = false;
  let skipsLeft = options.skipBudget ?? Infinity;
  let busyLoads = 0;
  let polls = 0;
  let dropped = 0;
  let movedVersion: string | undefined;
  let walkWindows = 0;
  let reasonsWindows = 0;
  const caseWindows = new Map<string | undefined, number>();
  const casePolls = new Map<string | undefined, number>();
  let bumps = 0;
  // Tracks are named by place; by id where items are removed or put first, so that a name stays with its item.
  const namedById =
    options.removesPlayedThrough !== undefined ||
    options.prependsInCentred === true ||
    options.removesInCase !== undefined ||
    options.removesOnFinal !== undefined;
  const remove = (id: string) => {
    if (!ids.includes(id)) return;
    ids.splice(ids.indexOf(id), 1);
    movedVersion = 'v2';
  };

  const server = createServer((request, response) => {
    if (options.extraHeaders) extra.set(response, options.extraHeaders);
    void handle(request, response).catch(() =>
      send(response, 500, { error: { code: 500, message: 'test server failed' } }),
    );
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://test');
    // `/q/player-N/…` is the same queue: a fleet's BASE_URL with `{player}` in it.
    const endpoint = url.pathname.replace(/^\/q\/(?:player-\d+\/)?(?:v\d+\.\d+\/)?/, '');
    requests.push(endpoint);
    urls.push(request.url ?? '/');
    const caseId = request.headers['x-conformance-case'];
    cases.push(typeof caseId === 'string' ? caseId : undefined);
    if (options.dropsRequests?.endpoint === endpoint && dropped < options.dropsRequests.times) {
      dropped++;
      if (options.dropsRequests.afterMs) await delay(options.dropsRequests.afterMs);
      if (options.dropsRequests.midBody) {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        await new Promise<void>((resolve) => response.write('{"items":[', () => resolve()));
        await delay(50);
      }
      request.socket.resetAndDestroy();
      return;
    }
    const authorization = request.headers.authorization;
    // Read before the token is checked: a defect takes some reports without one.
    let reportBody = '';
    if (endpoint === 'timePlayed' && request.method === 'POST')
      for await (const chunk of request) reportBody += String(chunk);
    // Reads the window's queueVersion before the token, and answers a stale one 409: a server's right.
    const sent = url.searchParams.get('queueVersion');
    if (
      options.refusesStaleVersionFirst &&
      endpoint === 'itemWindow' &&
      sent !== null &&
      sent !== (movedVersion ?? 'v1')
    )
      return send(response, 409, { error: { code: 409, message: `queueVersion ${sent} is stale` } });
    if (defects.has('noVersion') && endpoint === 'version')
      return send(response, 404, { error: { code: 404, message: 'no such route' } });
    const unknownItem = url.searchParams.get('itemId');
    if (defects.has('unknownItemBeforeAuth') && endpoint === 'itemWindow' && unknownItem && !ids.includes(unknownItem))
      return send(response, 404, { error: { code: 404, message: `no item ${unknownItem}` } });
    const open =
      (defects.has('reportsWithoutAuth') && endpoint === 'timePlayed') ||
      (defects.has('contextWithoutAuth') && !authorization && (endpoint === 'context' || endpoint === 'version')) ||
      (defects.has('itemIdWindowsWithoutAuth') && endpoint === 'itemWindow' && url.searchParams.has('itemId')) ||
      (defects.has('pauseWindowsWithoutAuth') &&
        endpoint === 'itemWindow' &&
        url.searchParams.get('reason') === 'pause') ||
      (defects.has('finalReportsWithoutAuth') && endpoint === 'timePlayed' && reportBody.includes('"type":"final"')) ||
      (defects.has('windowsWithoutAuthWhenNoneSent') &&
        !authorization &&
        endpoint === 'itemWindow' &&
        !['load', 'skipToItem'].includes(url.searchParams.get('reason') ?? ''));
    if (
      open
        ? false
        : !authorization ||
          (authorization !== `Bearer ${TOKEN}` &&
            !(defects.has('acceptsWrongToken') && authorization.startsWith('Bearer ')))
    ) {
      if (authorization && defects.has('forbidsWrongToken'))
        return send(response, 403, { error: { code: 403, message: 'forbidden' } });
      return send(response, 401, { error: { code: 401, message: 'invalid token' } });
    }
    if (options.walkAnswersAfterMs && endpoint === 'itemWindow' && caseId === 'item-window.queue-ends')
      await new Promise((resolve) => setTimeout(resolve, options.walkAnswersAfterMs));
    if (options.playAnswersAfterMs && caseId === 'play-through')
      await new Promise((resolve) => setTimeout(resolve, options.playAnswersAfterMs));
    if (defects.has('diesAfterSixTracks') && ended.size >= 6)
      return send(response, 500, { error: { code: 500, message: 'out of memory' } });
    if (defects.has('hangsAfterSixTracks') && ended.size >= 6) return;
    if (
      endpoint === 'context' &&
      options.busyOnPlayThroughLoad?.on === 'context' &&
      cases.at(-1) === 'play-through' &&
      busyLoads++ < options.busyOnPlayThroughLoad.times
    )
      return busyForAMoment(response, options.busyOnPlayThroughLoad.retryAfter);
    if (endpoint === 'context') {
      if (defects.has('noContext')) return send(response, 404, { error: { code: 404, message: 'no context here' } });
      return send(response, 200, {
        contextVersion: '1',
        queueVersion: 'v1',
        container: { name: 'Test', type: 'playlist' },
        reports: { sendUpdateAfterMillis: 30_000, periodicIntervalMillis: 30_000 },
        playbackPolicies: {
          canSkip: true,
          ...(options.skipBudget === undefined ? {} : { limitedSkips: true }),
          ...(options.noSkipBack ? { canSkipBack: false } : {}),
        },
      });
    }
    if (endpoint === 'version') {
      if (options.versionBusyOnce && !versionBusy) {
        versionBusy = true;
        response
          .writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' })
          .end(JSON.stringify({ error: { code: 503, message: 'warming up' } }));
        return;
      }
      if (options.versionDelayMs && !versionDelayed) {
        versionDelayed = true;
        await new Promise((resolve) => setTimeout(resolve, options.versionDelayMs));
      }
      polls++;
      const byCase = (casePolls.get(cases.at(-1)) ?? 0) + 1;
      casePolls.set(cases.at(-1), byCase);
      if (edited()) movedVersion = 'v2';
      if (
        editedOnce() &&
        options.editedFromWindow?.versionLeftBehind !== true &&
        Date.now() - editedAt! >= (options.editedFromWindow?.versionLagMs ?? 0)
      )
        movedVersion = 'v2';
      if (options.versionMovesFromPoll !== undefined && polls >= options.versionMovesFromPoll)
        movedVersion = `v-t${polls}`;
      const stale = options.versionStaleAfter !== undefined && polls > options.versionStaleAfter;
      send(response, 200, {
        queueVersion: defects.has('versionDisagrees') ? 'v2' : stale ? 'v-stale' : (movedVersion ?? 'v1'),
        contextVersion: '1',
      });
      if (options.bumpsAfterPolls?.some((bump) => bump.caseId === cases.at(-1) && bump.poll === byCase))
        movedVersion = `v-b${++bumps}`;
      return;
    }
    if (endpoint === 'timePlayed' && request.method === 'POST') {
      const items = (JSON.parse(reportBody) as { items: { id: string; type: string }[] }).items;
      const lacking = options.asksV23ReportFields
        ? items.flatMap((item) => ['contextVersion', 'reportId'].filter((field) => !(field in item)))
        : [];
      if (lacking.length > 0) return send(response, 400, { error: { code: 400, message: `bad field: ${lacking[0]}` } });
      if (
        defects.has('refusesSkipFinal') &&
        items.some(
          (item) => 'skip' in item || JSON.stringify((item as { actions?: unknown }).actions ?? []).includes('"skip"'),
        )
      )
        return send(response, 400, { error: { code: 400, message: 'bad field: skip' } });
      for (const item of items) if (item.type === 'final') ended.add(item.id);
      if (options.removesOnFinal && ended.has(options.removesOnFinal.final)) remove(options.removesOnFinal.item);
      if (options.emptiesOnFinal !== undefined && ended.has(options.emptiesOnFinal))
        for (const id of [...ids]) remove(id);
      const appending = options.appendsUnderOneVersionOnFinal;
      if (appending !== undefined && ended.has(appending) && !ids.includes('item-late-1'))
        ids.push('item-late-1', 'item-late-2');
      const played = options.removesPlayedThrough;
      if (played !== undefined && ended.has(played) && ids.includes(played)) {
        ids.splice(0, ids.indexOf(played) + 1);
        movedVersion = 'v2';
      }
      if (defects.has('refusesFinalReport') && items.some((item) => item.type === 'final'))
        return send(response, 400, { error: { code: 400, message: 'final reports are not taken' } });
      if (options.reportAnswer !== undefined) return send(response, 200, options.reportAnswer);
      response.writeHead(204).end();
      return;
    }
    if (endpoint !== 'itemWindow') return send(response, 404, { error: { code: 404, message: `no ${endpoint}` } });

    // `+` in a query decodes to a space: load+queueCompleted arrives as "load queueCompleted".
    const reason = (url.searchParams.get('reason') ?? '').replace(/ /g, '+');
    if (!REASONS.has(reason) || (defects.has('refusesCombinedReason') && reason.includes('+')))
      return send(response, 400, { error: { code: 400, message: `bad reason ${reason}` } });
    if (
      options.busyOnPlayThroughLoad?.on === 'itemWindow' &&
      reason === 'load' &&
      cases.at(-1) === 'play-through' &&
      busyLoads++ < options.busyOnPlayThroughLoad.times
    )
      return busyForAMoment(response, options.busyOnPlayThroughLoad.retryAfter);
    if (reason === 'skipNext' || reason === 'skipPrev') {
      if (skipsLeft <= 0) {
        refusedSkips.push(cases.at(-1));
        response
          .writeHead(403, { 'content-type': 'application/json', 'x-rejected-reason': 'SKIP_LIMIT_REACHED' })
          .end(JSON.stringify({ error: { code: 403, message: 'skip limit' } }));
        return;
      }
      skipsLeft--;
    }
    const lookedUp = url.searchParams.get('itemId');
    if (options.looksUpItemFirst && lookedUp !== null && !ids.includes(lookedUp))
      return send(response, 404, { error: { code: 404, message: `no item ${lookedUp}` } });
    const sizes: number[] = [];
    for (const [name, fallback] of [
      ['previousWindowSize', 5],
      ['upcomingWindowSize', 10],
    ] as const) {
      const raw =
        name === 'previousWindowSize' && options.ignoresPreviousWithoutItem && !url.searchParams.has('itemId')
          ? null
          : url.searchParams.get(name);
      let size = raw === null ? fallback : Number(raw);
      const skipToItem = url.searchParams.get('reason') === 'skipToItem';
      if (raw !== null && !/^-?\d+$/.test(raw)) {
        if (
          !defects.has('acceptsNonIntegerSize') &&
          !(defects.has('nonIntegerSizeRefusedOnlyForSkipToItem') && !skipToItem)
        )
          return send(response, 400, { error: { code: 400, message: `${name} must be an integer` } });
        size = Number.isNaN(size) ? fallback : Math.floor(size);
      }
      if (size === 0 && options.refusesZeroSizes)
        return send(response, 400, { error: { code: 400, message: `${name} must be 1 or more` } });
      if (size < 0) {
        if (
          !defects.has('acceptsNegativeSize') &&
          !(defects.has('negativeSizeRefusedOnlyForSkipToItem') && !skipToItem)
        )
          return send(response, 400, { error: { code: 400, message: `${name} must be zero or greater` } });
        size = 0;
      }
      sizes.push(size);
    }
    const extra =
      defects.has('moreThanAsked') ||
      (options.oneMoreFromUpcoming !== undefined && sizes[1]! >= options.oneMoreFromUpcoming)
        ? 1
        : 0;
    const ignored = defects.has('reasonsIgnoreSizes') && /^(skipNext|skipPrev|pause|play|resume)$/.test(reason);
    const previous = ignored ? 5 : sizes[0]! + extra;
    const upcoming = ignored ? 10 : sizes[1]! + extra;
    if (busy && url.searchParams.has('queueVersion')) {
      busy = false;
      return send(response, 503, { error: { code: 503, message: 'busy' } });
    }
    const asked = url.searchParams.get('itemId');
    const itemId = options.renamesEveryWindow && asked ? asked.replace(/-r\d+$/, '') : asked;
    windowsServed++;
    if (windowsServed === options.editedFromWindow?.window) editedAt = Date.now();
    if (edited()) movedVersion = 'v2';
    if (cases.at(-1) === 'item-window.queue-ends' && ++walkWindows === options.removesLastInWalk) {
      ids.pop();
      movedVersion = 'v2';
    }
    const inCase = (caseWindows.get(cases.at(-1)) ?? 0) + 1;
    caseWindows.set(cases.at(-1), inCase);
    const removal = options.removesInCase;
    if (removal && cases.at(-1) === removal.caseId && inCase === removal.window) remove(removal.item);
    if (itemId !== null && options.forgetsInCase !== undefined && cases.at(-1) === options.forgetsInCase)
      return send(response, 404, { error: { code: 404, message: `no item ${itemId}` } });
    if (options.prependsInCentred && cases.at(-1) === 'item-window.centred' && ids[0] !== 'item-0') {
      ids.unshift('item-0');
      movedVersion = 'v2';
    }
    if (cases.at(-1) === 'item-window.reasons' && ++reasonsWindows === options.appendsInReasons) {
      const count = ids.length;
      ids.push(...[1, 2, 3].map((k) => `item-${count + k}`));
      movedVersion = 'v2';
    }
    const current = options.currentItem ?? (defects.has('centredBeginningNeverTrue') ? 9 : 0);
    const chosen = Math.min(current, Math.max(0, ids.length - 1));
    let at = itemId ? ids.indexOf(itemId) : chosen;
    if (defects.has('loadIgnoresKnownItem') && reason?.startsWith('load') && at !== -1) at = chosen;
    if (at === -1) {
      if (
        !defects.has('unknownItemFromStart') &&
        !(defects.has('unknownItemOnlyForSkipToItem') && reason !== 'skipToItem') &&
        !(defects.has('unknownItemOnLoad') && reason?.startsWith('load'))
      )
        return send(response, 404, { error: { code: 404, message: `no item ${itemId}` } });
      at = 0;
    }
    const onlyTwo = defects.has('servesCurrentAndNext');
    const padded = defects.has('padsAtQueueStart') && itemId && at < previous ? previous - at : 0;
    // Without itemId the window starts at the first item, or is centred on the current one when there is one.
    const startsAtItem =
      itemId !== null && (defects.has('withholdsEarlier') || options.noSkipBackItems?.includes(itemId) === true);
    const from = onlyTwo || startsAtItem ? at : itemId || current ? Math.max(0, at - previous) : at;
    const to = Math.min(ids.length, at + (onlyTwo ? Math.min(upcoming, 1) : upcoming + padded) + 1);
    const items = ids.slice(from, to).map((id, k) => {
      const other = defects.has('reusesIds') && itemId !== null && from + k >= 10 ? ' (another)' : '';
      const host = options.rotatesMediaHosts ? `edge-${windowsServed % 3}.media.example` : 'media.example';
      const signed = options.rotatesMediaHosts ? `?sig=${windowsServed}` : '';
      const changed =
        editedOnce() && options.editedFromWindow?.track?.item === id ? options.editedFromWindow.track : null;
      const media = `https://${host}/${changed?.path ?? `${id}${other ? '-another' : ''}.mp3`}${signed}`;
      return {
        id: options.renamesEveryWindow ? `${id}-r${windowsServed}` : id,
        track: {
          name: changed?.name ?? `Track ${namedById ? id : from + k + 1}${other}`,
          ...(defects.has('tracksWithoutMediaUrl') ? {} : { mediaUrl: media }),
          durationMillis: options.trackMillis ?? 180_000,
          ...(options.itemNotes ? { notes: 'n'.repeat(options.itemNotes) } : {}),
        },
        ...(options.noSkipBackItems?.includes(id) ? { policies: { canSkipBack: false } } : {}),
      };
    });
    // The item before, whole (the same track): one id in two places, nothing else wrong.
    if (defects.has('repeatsItemOnResume') && reason === 'resume' && items.length > 1)
      items[items.length - 1] = items.at(-2)!;
    return send(response, 200, {
      includesBeginningOfQueue:
        (from === 0 &&
          !defects.has('centredBeginningNeverTrue') &&
          !(defects.has('beginningFalseWithoutPrevious') && itemId !== null && sizes[0] === 0)) ||
        defects.has('beginningAlwaysTrue'),
      includesEndOfQueue:
        (to === ids.length || (options.endOneEarly === true && to === ids.length - 1)) &&
        !(options.endFalseForPlayer && cases.at(-1) === 'play-through') &&
        !(options.endFalseOnceEditedAt !== undefined && edited()) &&
        !defects.has('endNeverTrue') &&
        !(defects.has('endFalseWithoutUpcoming') && sizes[1] === 0) &&
        !(defects.has('queueCompletedNeverEnds') && reason === 'queueCompleted'),
      contextVersion: '1',
      ...(defects.has('noQueueVersion')
        ? {}
        : {
            queueVersion:
              options.newVersionEveryWindow ||
              (options.newVersionFromWindow !== undefined && windowsServed >= options.newVersionFromWindow)
                ? `v${windowsServed}`
                : editedOnce()
                  ? 'v2'
                  : (movedVersion ?? 'v1'),
          }),
      items,
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const { version } = options;
  return {
    baseUrl: `http://127.0.0.1:${port}/q/${version ? `${version}/` : ''}`,
    authorization: `Bearer ${TOKEN}`,
    requests,
    urls,
    cases,
    refusedSkips,
    windowsServed: () => windowsServed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Each answer's extra headers (`extraHeaders`), by the response they go with. */
const extra = new WeakMap<ServerResponse, Record<string, string>>();

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { ...extra.get(response), 'content-type': 'application/json' }).end(text);
}

function busyForAMoment(response: ServerResponse, retryAfter = '1'): void {
  response
    .writeHead(503, { 'content-type': 'application/json', 'retry-after': retryAfter })
    .end(JSON.stringify({ error: { code: 503, message: 'busy' } }));
}
