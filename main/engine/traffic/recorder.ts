/**
 * Captures exchanges into the traffic log without slowing the servers down: entries are buffered
 * and written in one transaction per flush (every 100 ms, or at once when 500 are waiting) by the
 * writer (a thread of its own with a data dir, see writer.ts), the oldest beyond the retention cap
 * are dropped, and hosts get each batch as one event. Bodies are kept up to 64 KiB each. Writes
 * happen in the order they were asked for, so a read after `flush()` sees every entry before it.
 */
import type { EventBus } from '../events/bus.js';
import type { TrafficSettings } from '../api/traffic-types.js';
import type { Logger } from '../log.js';
import type { SettingsRepository } from '../store/repositories/settings.js';
import { clearOp, insertOps, storedSummaries, trimOp, type NewTrafficEntry, type TrafficRepository } from '../store/repositories/traffic.js';
import { engineWriter, type TrafficWriter } from './writer.js';

export const DEFAULT_TRAFFIC_SETTINGS: TrafficSettings = { retention: 100_000, capture: true };
export const MAX_BODY_CHARS = 64 * 1024;
const FLUSH_EVERY_MS = 100;
const FLUSH_AT = 500;
const SETTINGS_KEY = 'traffic.settings';

export function clip(body: string | null | undefined): string | null {
  if (body === null || body === undefined) return null;
  return body.length > MAX_BODY_CHARS ? `${body.slice(0, MAX_BODY_CHARS)}… (${body.length - MAX_BODY_CHARS} more characters not kept)` : body;
}

export interface TrafficRecorderDeps {
  repo: Pick<TrafficRepository, 'run'>;
  settings: SettingsRepository;
  bus: Pick<EventBus, 'emit'>;
  /** Default: the engine's own connection. */
  writer?: TrafficWriter;
  log?: Logger;
}

export class TrafficRecorder {
  private buffer: NewTrafficEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private current: TrafficSettings;
  private readonly writer: TrafficWriter;
  /** Settles once everything asked of the writer so far is done. */
  private written: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: TrafficRecorderDeps) {
    this.current = { ...DEFAULT_TRAFFIC_SETTINGS, ...deps.settings.get<Partial<TrafficSettings>>(SETTINGS_KEY) };
    this.writer = deps.writer ?? engineWriter(deps.repo);
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
      const [[, dropped]] = (await this.write([trimOp(this.current.retention)])) as [[number, number]];
      if (dropped > 0) this.deps.bus.emit('traffic.reset', { reason: 'retention' });
    }
    return this.settings;
  }

  add(entry: NewTrafficEntry): void {
    if (!this.current.capture) return;
    entry.requestBody = clip(entry.requestBody);
    entry.responseBody = clip(entry.responseBody);
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
    if (batch.length === 0) {
      await this.written;
      return;
    }
    try {
      const results = await this.write([...insertOps(batch), trimOp(this.current.retention)]);
      this.deps.bus.emit('traffic.captured', storedSummaries(batch, results));
    } catch (error) {
      this.deps.log?.error(`${batch.length} traffic entries were not stored`, error);
    }
  }

  async clear(): Promise<void> {
    this.buffer = [];
    await this.write([clearOp()]);
    this.deps.bus.emit('traffic.reset', { reason: 'cleared' });
  }

  async close(): Promise<void> {
    await this.flush();
    await this.writer.close();
  }

  private write(ops: Parameters<TrafficWriter['run']>[0]) {
    const done = this.writer.run(ops);
    this.written = done.catch(() => undefined);
    return done;
  }
}
