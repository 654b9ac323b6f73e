/**
 * What a scenario asks of its players. The engine's config (`config.engines.cloud-queue`) gives
 * the defaults, each `play` step of a scenario's flow overrides them; the base URL defaults to
 * `config.target`. Strings are Artillery templates (`{{ $env.QUEUE_TOKEN }}`, `--variables`),
 * rendered per virtual user, then `{player}` becomes the VU's own id.
 */
import type { ListenerRates } from '../../../main/engine/fleet/listener.js';

export interface PlayOptions {
  queueBaseUrl: string;
  authorization?: string;
  /** Engine seconds the player plays: listening time, `seconds / speed` of wall time. */
  seconds: number;
  speed: number;
  seed: number;
  rates: ListenerRates;
}

/** A scenario's options as written, before they are checked. */
export type RawOptions = Record<string, unknown>;

export const DEFAULT_SECONDS = 60;

/** Checked options, or what is wrong with them (a bad scenario fails its VU, never hangs it). */
export function playOptions(
  raw: RawOptions,
  vuId: string,
): { ok: true; options: PlayOptions } | { ok: false; message: string } {
  const problems: string[] = [];
  const base = typeof raw.baseUrl === 'string' ? raw.baseUrl.replaceAll('{player}', vuId) : undefined;
  if (!base || !URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol))
    problems.push(`baseUrl (or config.target) must be an absolute http(s) URL, got ${JSON.stringify(raw.baseUrl)}`);
  const number = (name: string, fallback: number, ok: (n: number) => boolean, wanted: string): number => {
    const value = raw[name] === undefined ? fallback : Number(raw[name]);
    if (!Number.isFinite(value) || !ok(value))
      problems.push(`${name} must be ${wanted}, got ${JSON.stringify(raw[name])}`);
    return value;
  };
  const rate = (name: string) => number(name, 0, (n) => n >= 0 && n <= 1, 'from 0 to 1');
  const options: PlayOptions = {
    queueBaseUrl: base ?? '',
    seconds: number('seconds', DEFAULT_SECONDS, (n) => n > 0, 'a number of seconds above 0'),
    speed: number('speed', 1, (n) => n > 0 && n <= 1_000, 'above 0 and at most 1000'),
    seed: number('seed', 1, Number.isInteger, 'an integer'),
    rates: { skipRate: rate('skipRate'), pauseRate: rate('pauseRate'), seekRate: rate('seekRate') },
  };
  if (raw.authorization !== undefined && raw.authorization !== '') {
    if (typeof raw.authorization !== 'string') problems.push('authorization must be a string');
    else options.authorization = raw.authorization;
  }
  return problems.length ? { ok: false, message: problems.join('; ') } : { ok: true, options };
}
