/**
 * The unit tests share their worker processes file after file (vitest.config.ts), but for the files
 * that replace a module with `vi.mock`: those run alone, and must be listed there, or the module
 * they replaced would stay replaced for the files after them in the same process. The files that
 * time how long a listener is held run after the rest, one at a time (`TIMING_FILES`).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCKING_FILES, TEST_FILES, TIMING_FILES } from '../vitest.config.js';

const ROOT = join(import.meta.dirname, '..');

/** The test files under the folders vitest's patterns name, as paths from the project's root. */
const testFiles = (): string[] =>
  TEST_FILES.map((pattern) => pattern.slice(0, pattern.indexOf('/**'))).flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.test\.tsx?$/.test(file))
      .map((file) => `${folder}/${file.replaceAll('\\', '/')}`),
  );

describe('test isolation', () => {
  it('runs every file that replaces a module in a process of its own', () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(100);
    const mocking = files.filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(mocking.sort()).toEqual([...MOCKING_FILES].sort());
  });

  it('runs every file that holds a listener to a bound of time after the rest, one at a time', () => {
    const timing = testFiles().filter((file) =>
      /probeStalls\(|STALL_MS\s*=|TURN_MS\s*=|toBeLessThan\(250\)/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(timing.sort()).toEqual([...TIMING_FILES].sort());
  });
});
