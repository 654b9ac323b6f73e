/**
 * Captures exchanges into the traffic log without slowing the servers down: the request path only
 * hands an exchange over (`add`: one push, its id answered at once); at the end of the event
 * loop's turn the exchanges handed over in it are cut, masked and encoded into the log's next
 * segment in one go (`drain`), and the segment is written in one transaction per flush (every
 * 100 ms, or at once when FLUSH_AT entries or FLUSH_BYTES are waiting), the oldest beyond the
 * retention cap or the byte budget are dropped, and hosts get each segment's entries as one
 * event. Before an exchange is encoded its bodies and headers are cut to their size (`cut.ts`)
 * and its secrets masked (`capture-secrets.ts`): what the log stores is never more, and never
 * holds a secret in clear (docs/contract/console.md §9). An exchange waiting for its turn's end
 * is in memory only: a crash then loses it, and writes nothing. A response body many entries
 * share is stored once (`log/bodies.ts`).
 *
 * Writes run on the engine's own connection: a writer thread with a second connection was tried
 * and taken out, because its commits landed between another transaction's read and write and
 * failed those with SQLITE_BUSY (token exchanges answered 500), and on two cores it cost more
 * throughput than it saved. Tried again with the log in a file of its own and the thread on a core
 * of its own, it still cost the engine's thread more than writing here: posting a batch of entry
 * objects to a thread costs about what SQLite's write did, because both read entries gone cold.
 */
import type { EventBus } from '../events/bus.js';
import type { TrafficSettings } from '../api/traffic-types.js';
import type { SettingsRepository } from '../store/repositories/settings.js';
import type { Committed, NewTrafficEntry, TrafficLogStore } from './log/index.js';
import type { EngineWarnings } from '../warnings.js';
import { messageOf } from '../api/errors.js';
import { CaptureMasker } from './capture-secrets.js';
import type { KnownSecrets } from '../security/known-secrets.js';
import { cutBodies, cutHeaders } from './cut.js';

/**
 * 100,000 entries of players' traffic take 70–100 MB: the byte budget stays out of their way, and
 * bounds entries made large on purpose (4,000 requests with 64 KiB bodies fill it).
 */
export const DEFAULT_TRAFFIC_SETTINGS: TrafficSettings = {
  retention: 100_000,
  retentionBytes: 256 * 1024 * 1024,
  capture: true,
};
const FLUSH_EVERY_MS = 100;
export const FLUSH_AT = 2_000;
/** A segment of large bodies is written sooner than FLUSH_AT entries. */
const FLUSH_BYTES = 4 * 1024 * 1024;
const SETTINGS_KEY = 'traffic.settings';
/** What an exchange keeps when masking it failed: its summary, no text that could hold a secret. */
const WITHOUT_TEXT = {
  url: '',
  requestHeaders: '',
  requestBody: null,
  responseHeaders: '',
  responseBody: null,
  held: null,
  masked: true,
} as const;

export interface TrafficRecorderDeps {
  repo: Pick<
    TrafficLogStore,
    'capture' | 'nextCaptureId' | 'stagedEntries' | 'stagedBytes' | 'commit' | 'retain' | 'clear' | 'byteBudget'
  >;
  settings: SettingsRepository;
  bus: Pick<EventBus, 'emit' | 'wants'>;
  /** Where a batch that could not be stored is told (and logged). */
  warnings?: Pick<EngineWarnings, 'warn'>;
  /** The secrets the engine knows by value; capture learns more from what it masks by name. */
  secrets?: KnownSecrets;
}

export class TrafficRecorder {
  private timer: NodeJS.Timeout | null = null;
  /** Exchanges handed over in this turn, oldest first: masked and encoded at its end. */
  private handed: NewTrafficEntry[] = [];
  private handedBytes = 0;
  private turnEnd: NodeJS.Immediate | null = null;
  /** One function for every turn's end, not a closure per turn. */
  private readonly atTurnEnd = () => {
    this.turnEnd = null;
    this.drain();
    const { repo } = this.deps;
    if (repo.stagedEntries >= FLUSH_AT || repo.stagedBytes >= FLUSH_BYTES) this.flush();
    else if (!this.timer && repo.stagedEntries > 0) {
      this.timer = setTimeout(() => this.flush(), FLUSH_EVERY_MS);
      this.timer.unref();
    }
  };
  private current: TrafficSettings;
  private readonly masker: CaptureMasker;

  constructor(private readonly deps: TrafficRecorderDeps) {
    this.masker = new CaptureMasker(deps.secrets);
    this.current = { ...DEFAULT_TRAFFIC_SETTINGS, ...deps.settings.get<Partial<TrafficSettings>>(SETTINGS_KEY) };
    deps.repo.byteBudget = this.current.retentionBytes;
  }

  get settings(): TrafficSettings {
    return { ...this.current };
  }

  get capturing(): boolean {
    return this.current.capture;
  }

  configure(change: Partial<TrafficSettings>): TrafficSettings {
    this.current = { ...this.current, ...change };
    this.deps.settings.set(SETTINGS_KEY, this.current);
    this.deps.repo.byteBudget = this.current.retentionBytes;
    if (change.retention !== undefined || change.retentionBytes !== undefined) {
      // What is captured goes out with its event first; the repository would write it anyway.
      this.flush();
      if (this.deps.repo.retain(this.current.retention) > 0)
        this.deps.bus.emit('traffic.reset', { reason: 'retention' });
    }
    return this.settings;
  }

  /**
   * Takes an exchange over from the request path; answers the id its entry gets, or null when
   * capture is off. Nothing else happens here: the work is done at the turn's end (`drain`).
   */
  add(entry: NewTrafficEntry): number | null {
    if (!this.current.capture) return null;
    const id = this.deps.repo.nextCaptureId + this.handed.length;
    this.handed.push(entry);
    // About what the entry adds to the segment (see `stagedBytes`): large bodies are written sooner.
    this.handedBytes += 64 + (entry.requestBody?.length ?? 0) + (entry.responseBody?.length ?? 0);
    if (this.handed.length >= FLUSH_AT || this.handedBytes >= FLUSH_BYTES) this.flush();
    else if (this.turnEnd === null) this.turnEnd = setImmediate(this.atTurnEnd);
    return id;
  }

  /**
   * Cuts, masks and encodes the exchanges handed over, in the order they came (so each gets the
   * id `add` answered). Bodies are cut before masking reads them; headers after, so that a long
   * token is held whole.
   */
  private drain(): void {
    if (this.turnEnd !== null) clearImmediate(this.turnEnd);
    this.turnEnd = null;
    const handed = this.handed;
    if (handed.length === 0) return;
    this.handed = [];
    this.handedBytes = 0;
    const { repo } = this.deps;
    for (let i = 0; i < handed.length; i++) {
      const entry = handed[i]!;
      try {
        cutBodies(entry);
        this.masker.mask(entry);
        cutHeaders(entry);
      } catch (error) {
        // Kept in its place without its text: masking that failed must not store it in clear.
        this.deps.warnings?.warn('traffic-log', `an exchange could not be masked (${messageOf(error)})`, error);
        Object.assign(entry, WITHOUT_TEXT);
      }
      repo.capture(entry);
    }
  }

  /**
   * Writes what is buffered now, on the caller's stack: once it returns, a read sees every entry
   * added before. Never throws (a batch that cannot be stored is dropped, with a warning).
   */
  flush(): void {
    this.drain();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const { bus } = this.deps;
    const wanted = bus.wants('traffic.captured');
    let committed: Committed;
    try {
      committed = this.deps.repo.commit(this.current.retention, wanted);
    } catch (error) {
      this.deps.warnings?.warn(
        'traffic-log',
        `traffic could not be stored (${messageOf(error)}): those exchanges are missing from the log`,
        error,
      );
      return;
    }
    if (committed.count === 0) return;
    if (wanted) bus.emit('traffic.captured', committed.stored);
    if (bus.wants('traffic.appended'))
      bus.emit('traffic.appended', { count: committed.count, lastId: committed.lastId, dropped: committed.dropped });
  }

  clear(): void {
    // Encoded first, so that the log skips the ids they were promised.
    this.drain();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.deps.repo.clear();
    this.deps.bus.emit('traffic.reset', { reason: 'cleared' });
  }

  close(): void {
    this.flush();
  }
}
