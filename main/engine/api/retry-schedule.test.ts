// Every description of the retry schedule is told from RETRY_SCHEDULE: told from a changed copy,
// each one changes with it; the docs and examples, which cannot import it, state its figures.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { faultPresets } from '../faults/presets.js';
import {
  BACKGROUND_RETRIES,
  BACKGROUND_RETRY_INTERVAL_MS,
  backgroundRetryDelay,
  clampRetryAfter,
  FOREGROUND_RETRY_LIMIT,
  INCOMPLETE_RETRY_WAIT_MS,
  REQUEST_TIMEOUT_MS,
} from '../player/retry.js';
import { VERSION_POLL_PAUSED_MS, VERSION_POLL_PLAYING_MS } from '../player/playback.js';
import { nextWindowNote } from '../player/trigger.js';
import { countWords, describeRetrySchedule, RETRY_SCHEDULE, spanWords, type RetrySchedule } from './retry-schedule.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** A schedule with every figure changed. */
const OTHER: RetrySchedule = {
  backgroundRetries: 5,
  backgroundRetryIntervalMs: 7_000,
  foregroundRetries: 2,
  incompleteRetryWaitMs: 1_500,
  retryAfterClampSec: [4, 8],
  requestTimeoutMs: 12_000,
  versionPollPausedMs: 240_000,
  versionPollPlayingMs: 480_000,
};

/** The figures each doc and example states, as told from `schedule`: [file, what it must say]. */
function statedFigures(schedule: RetrySchedule): [file: string, text: string][] {
  const words = describeRetrySchedule(schedule);
  return [
    ['docs/player.md', `retry ${countWords(schedule.backgroundRetries)} more times ${words.backgroundInterval} apart`],
    [
      'docs/demo.md',
      `a background retry goes out every ${words.backgroundInterval} of engine time, ${schedule.backgroundRetries} in all`,
    ],
    [
      'examples/ci-503-storm.json',
      `The version poll (${words.versionPollPlaying} in) and its ${words.backgroundRetries} fail`,
    ],
    ['examples/ci-503-storm.json', `{ "type": "clock", "advanceMs": ${words.versionPollExhaustedMs} }`],
    [
      'docs/fleet.md',
      `${countWords(schedule.foregroundRetries)} times: after a 503's Retry-After clamped to ${schedule.retryAfterClampSec.join('–')} s`,
    ],
    ['docs/fleet.md', `${countWords(schedule.backgroundRetries)} more times ${words.backgroundInterval} apart`],
  ];
}
const unstated = (schedule: RetrySchedule) =>
  statedFigures(schedule).filter(([file, text]) => !read(file).replace(/\s+/g, ' ').includes(text));

describe('the retry schedule', () => {
  it('is what the player retries by and polls by', () => {
    expect([BACKGROUND_RETRIES, BACKGROUND_RETRY_INTERVAL_MS]).toEqual([
      RETRY_SCHEDULE.backgroundRetries,
      RETRY_SCHEDULE.backgroundRetryIntervalMs,
    ]);
    expect([FOREGROUND_RETRY_LIMIT, INCOMPLETE_RETRY_WAIT_MS, REQUEST_TIMEOUT_MS]).toEqual([
      RETRY_SCHEDULE.foregroundRetries,
      RETRY_SCHEDULE.incompleteRetryWaitMs,
      RETRY_SCHEDULE.requestTimeoutMs,
    ]);
    expect([VERSION_POLL_PAUSED_MS, VERSION_POLL_PLAYING_MS]).toEqual([
      RETRY_SCHEDULE.versionPollPausedMs,
      RETRY_SCHEDULE.versionPollPlayingMs,
    ]);
    const incomplete = { kind: 'incomplete', message: 'x' } as const;
    const waits = Array.from({ length: RETRY_SCHEDULE.backgroundRetries + 1 }, (_, n) =>
      backgroundRetryDelay(incomplete, n),
    );
    expect(waits).toEqual([
      ...Array(RETRY_SCHEDULE.backgroundRetries).fill(RETRY_SCHEDULE.backgroundRetryIntervalMs),
      null,
    ]);
    expect([clampRetryAfter(0), clampRetryAfter(99)]).toEqual([...RETRY_SCHEDULE.retryAfterClampSec]);
  });

  it('reads as the console has always said it', () => {
    const words = describeRetrySchedule();
    expect(words.backgroundRetried).toBe('retried 3 times, 10 s apart');
    expect(words.backgroundRetries).toBe('three background retries');
    expect(words.backgroundTriesWords).toBe('four tries');
    expect(words.foregroundRetried(3)).toBe('retried 3 times, 3 s apart');
    expect(words.versionPollPlaying).toBe('10 min');
    expect(words.versionPollExhaustedMs).toBe(10 * 60_000 + 3 * 10_000);
    expect([spanWords(2_500), spanWords(90_000), countWords(12)]).toEqual(['2.5 s', '90 s', '12']);
  });

  it('changes every preset description and Trigger now note told from a changed copy', () => {
    const before = new Map(faultPresets().map((p) => [p.id, p]));
    const after = new Map(faultPresets(OTHER).map((p) => [p.id, p]));
    const changed = [...after.values()].filter((p) => p.description !== before.get(p.id)!.description).map((p) => p.id);
    // Every preset whose description names a retry figure.
    expect(changed.sort()).toEqual([
      '503-item-window-refresh',
      '503-storm',
      'refresh-timeout',
      'slow-server',
      'version-drop',
    ]);
    expect(after.get('503-storm')!.description).toContain('is retried 5 times, 7 s apart, then');
    expect(after.get('503-storm')!.description).toContain('is retried 2 times, 4 s apart, then the player goes idle');
    expect(after.get('503-item-window-refresh')!.description).toMatch(
      /^The next six GET .* retried 5 times, 7 s apart/,
    );
    expect(after.get('refresh-timeout')!.description).toContain('for all six tries (each given up after 12 s');
    expect(after.get('version-drop')!.description).toContain('retried in the background 7 s later');
    expect(after.get('slow-server')!.description).toContain('given up only after 12 s');
    // What fails every try follows too.
    expect([after.get('503-item-window-refresh')!.rule.times, after.get('refresh-timeout')!.rule.times]).toEqual([
      6, 6,
    ]);

    expect(nextWindowNote()).toContain('retried 3 times, 10 s apart');
    expect(nextWindowNote(OTHER)).toContain('the background Next Window request: retried 5 times, 7 s apart; then');
  });

  it('gives the storm bundle its clock step, with no figure of its own', () => {
    const storm = read('main/testing/storm-bundle.ts');
    expect(storm).toContain("'/clock', { advanceMs: describeRetrySchedule().versionPollExhaustedMs }");
    expect(storm).not.toMatch(/\d{3}_?000/);
    expect(describeRetrySchedule(OTHER).versionPollExhaustedMs).toBe(480_000 + 5 * 7_000);
  });

  it('is stated in the docs and examples with its own figures, and a changed copy is not', () => {
    expect(unstated(RETRY_SCHEDULE)).toEqual([]);
    expect(unstated(OTHER)).toEqual(statedFigures(OTHER));
  });
});
