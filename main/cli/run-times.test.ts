/**
 * Two runs of one bundle print the same engine times: the run's clock is stopped from the start
 * (an import takes the bundle's speed, and a bundle exported at speed 200 let the clock run at 200
 * until its scenario stopped it: an outsider's two runs differed by 80 ms).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReproBundle } from '../engine/api/bundle-types.js';
import { startTestEngine } from '../engine/testing/http.js';
import { tempDirs } from '../engine/testing/temp-dirs.js';
import { runCli } from '../testing/cli.js';
import { exportStormBundle } from '../testing/storm-bundle.js';

const tempDir = tempDirs('cqc-run-times-');

let file: string;
beforeAll(async () => {
  const source = await startTestEngine();
  let bundle: ReproBundle;
  try {
    bundle = await exportStormBundle(source.urls.console, source.adminToken);
  } finally {
    await source.close();
  }
  file = join(tempDir(), 'fast.json');
  writeFileSync(file, JSON.stringify({ ...bundle, clock: { ...bundle.clock, speed: 200 } }));
});

/** The engine times of a run's step lines, in order. */
const timesOf = (stdout: string) => [...stdout.matchAll(/^\[\+(\d\d:\d\d:\d\d\.\d{3})\]/gm)].map((match) => match[1]);

describe('a bundle exported while the clock ran fast', () => {
  it('prints the same engine times run after run, from +00:00:00.000', async () => {
    const first = await runCli('run', file);
    const second = await runCli('run', file);
    expect(first.code, first.stdout).toBe(0);
    expect(second.code).toBe(0);
    const times = timesOf(first.stdout);
    expect(times.length).toBeGreaterThan(3);
    expect(times.slice(0, 2)).toEqual(['00:00:00.000', '00:00:00.000']);
    expect(timesOf(second.stdout)).toEqual(times);
  });
});
