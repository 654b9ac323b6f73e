/**
 * The unit tests share their worker processes file after file (vitest.config.ts), but for the files
 * that replace a module with `vi.mock`: those run alone, and must be listed there, or the module
 * they replaced would stay replaced for the files after them in the same process.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCKING_FILES } from '../vitest.config.js';

const ROOT = join(import.meta.dirname, '..');
const SKIPPED = new Set(['node_modules', 'out', 'dist', '.git', 'test-results']);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [relative(ROOT, path).replaceAll('\\', '/')] : [];
  });
}

describe('test isolation', () => {
  it('runs every file that replaces a module in a process of its own', () => {
    const files = ['main', 'renderer', 'scripts', 'bench', 'test'].flatMap((dir) => testFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(100);
    const mocking = files.filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(mocking.sort()).toEqual([...MOCKING_FILES].sort());
  });
});
