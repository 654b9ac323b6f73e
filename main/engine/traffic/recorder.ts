/**
 * Captures exchanges into the traffic log without slowing the servers down: entries are buffered
 * and written in one transaction per flush (every 100 ms, or at once when 500 are waiting), the
 * oldest beyond the retention cap are dropped, and hosts get each batch as one event. Bodies are
 * kept up to 64 KiB each.
 */
import type { EventBus } from '../events/bus.js';
import type { TrafficSettings, TrafficSummary } from '../api/traffic-types.js';
import type { SettingsRepository } from '../store/repositories/settings.js';
import type { NewTrafficEntry, TrafficRepository } from '../store/repositories/traffic.js';

export const DEFAULT_TRAFFIC_SETTINGS: TrafficSettings = { retention: 100_000, capture: true };
export const MAX_BODY_CHARS = 64 * 1024;
const FLUSH_EVERY_MS = 100;
const FLUSH_AT = 500;
const SETTINGS_KEY = 'traffic.settings';

export function clip(body: string | null | undefined): string | null {
  if (body === null || body === undefined) return null;
  return body.length > MAX_BODY_CHARS ? `${body.slice(0, MAX_BODY_CHARS)}… (${body.length - MAX_BODY_CHARS} more characters not kept)` : body;
}

export class TrafficRecorder {
  private buffer: NewTrafficEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private current: TrafficSettings;

  constructor(
    private readonly deps: { repo: TrafficRepository; settings: SettingsRepository; bus: Pick<EventBus, 'emit'> },
  ) {
    this.current = { ...DEFAULT_TRAFFIC_SETTINGS, ...deps.settings.get<Partial<TrafficSettings>>(SETTINGS_KEY) };
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
    if (change.retention !== undefined && this.deps.repo.retain(this.current.retention) > 0) this.deps.bus.emit('traffic.reset', { reason: 'retention' });
    return this.settings;
  }

  add(entry: NewTrafficEntry): void {
    if (!this.current.capture) return;
    entry.requestBody = clip(entry.requestBody);
    entry.responseBody = clip(entry.responseBody);
    this.buffer.push(entry);
    if (this.buffer.length >= FLUSH_AT) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Writes what is buffered now (tests and the traffic commands call it before reading). */
  flush(): TrafficSummary[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.length === 0) return [];
    const batch = this.buffer;
    this.buffer = [];
    const stored = this.deps.repo.addAll(batch);
    this.deps.repo.retain(this.current.retention);
    this.deps.bus.emit('traffic.captured', stored);
    return stored;
  }

  clear(): void {
    this.buffer = [];
    this.deps.repo.clear();
    this.deps.bus.emit('traffic.reset', { reason: 'cleared' });
  }

  close(): void {
    this.flush();
  }
}
