/**
 * Captures exchanges into the traffic log without slowing the servers down: entries are buffered
 * and written in one transaction per flush (every 100 ms, or at once when FLUSH_AT are waiting), the
 * oldest beyond the retention cap are dropped, and hosts get each batch as one event. Bodies are
 * kept up to 64 KiB each; a response body many rows share is stored once (`TrafficBodies`).
 * Writes run on the engine's own connection: a writer thread with a second connection was tried
 * and taken out, because its commits landed between another transaction's read and write and
 * failed those with SQLITE_BUSY (token exchanges answered 500), and on two cores it cost more
 * throughput than it saved.
 */
import type { EventBus } from '../events/bus.js';
import type { TrafficSettings } from '../api/traffic-types.js';
import type { Logger } from '../log.js';
import type { SettingsRepository } from '../store/repositories/settings.js';
import type { NewTrafficEntry, TrafficRepository } from '../store/repositories/traffic.js';

export const DEFAULT_TRAFFIC_SETTINGS: TrafficSettings = { retention: 100_000, capture: true };
export const MAX_BODY_CHARS = 64 * 1024;
const FLUSH_EVERY_MS = 100;
/**
 * Small on purpose: a batch must be written well before the young generation is next collected
 * (every few hundred requests under load). With 500, buffered entries outlived a scavenge so often
 * that V8's allocation-site pretenuring moved capture's allocations into the old generation for
 * good, and capture's GC time doubled (measured: +770 B promoted per request, gone at 64). A
 * 64-row transaction costs no more per row than a 500-row one, in memory or on disk.
 */
export const FLUSH_AT = 64;
const SETTINGS_KEY = 'traffic.settings';

export function clip(body: string | null | undefined): string | null {
  if (body === null || body === undefined) return null;
  return body.length > MAX_BODY_CHARS ? `${body.slice(0, MAX_BODY_CHARS)}… (${body.length - MAX_BODY_CHARS} more characters not kept)` : body;
}

export interface TrafficRecorderDeps {
  repo: Pick<TrafficRepository, 'append' | 'retain' | 'clear' | 'renewBody'>;
  settings: SettingsRepository;
  bus: Pick<EventBus, 'emit'>;
  log?: Logger;
}

export class TrafficRecorder {
  private buffer: NewTrafficEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private current: TrafficSettings;

  constructor(private readonly deps: TrafficRecorderDeps) {
    this.current = { ...DEFAULT_TRAFFIC_SETTINGS, ...deps.settings.get<Partial<TrafficSettings>>(SETTINGS_KEY) };
  }

  get settings(): TrafficSettings {
    return { ...this.current };
  }

  get capturing(): boolean {
    return this.current.capture;
  }

  async configure(change: Partial<TrafficSettings>): Promise<TrafficSettings> {
    this.current = { ...this.current, ...change };
    this.deps.settings.set(SETTINGS_KEY, this.current);
    if (change.retention !== undefined) {
      if (this.deps.repo.retain(this.current.retention) > 0) this.deps.bus.emit('traffic.reset', { reason: 'retention' });
    }
    return this.settings;
  }

  add(entry: NewTrafficEntry): void {
    if (!this.current.capture) return;
    entry.requestBody = clip(entry.requestBody);
    entry.responseBody = clip(entry.responseBody);
    this.deps.repo.renewBody(entry.url, entry.responseBody);
    this.buffer.push(entry);
    if (this.buffer.length >= FLUSH_AT) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Writes what is buffered now; resolves once it and everything before it is stored. Never rejects. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length === 0) return;
    try {
      this.deps.bus.emit('traffic.captured', this.deps.repo.append(batch, this.current.retention).stored);
    } catch (error) {
      this.deps.log?.error(`${batch.length} traffic entries were not stored`, error);
    }
  }

  async clear(): Promise<void> {
    this.buffer = [];
    this.deps.repo.clear();
    this.deps.bus.emit('traffic.reset', { reason: 'cleared' });
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
