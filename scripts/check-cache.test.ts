/**
 * The check stage's caches kept between clones (scripts/check-cache.mjs), run with the real tools
 * as `npm test` runs them: a second clone's typecheck and lint take what the first learned, and
 * still see every error its own changes make, in the file changed or in a file that depends on it.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../main/engine/testing/temp-dirs.js';
import {
  type CachedJob,
  checkCacheFolder,
  keep,
  lintJob,
  PROJECT_CACHE,
  relocated,
  restore,
  ROOT_MARK,
  typecheckJob,
} from './check-cache.mjs';

const tempDir = tempDirs('cqc-check-cache-');
const BIN = join(import.meta.dirname, '..', 'node_modules', '.bin');

/** Runs a job as scripts/test.mjs does: its cache offered before, kept after. */
function runJob(root: string, job: CachedJob, folder: string) {
  const offered = restore(root, job.cache, folder);
  const result = spawnSync(join(BIN, job.command), job.args, { cwd: root, encoding: 'utf8' });
  const kept = keep(root, job.cache, folder);
  return { offered, kept, status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A second clone of `project`: its sources only, none of the tools' files. */
function cloneOf(project: string): string {
  const clone = join(tempDir(), 'clone');
  cpSync(project, clone, { recursive: true, filter: (from) => !from.includes('node_modules') });
  return clone;
}

describe('the typecheck cache', () => {
  /** A project where b.ts uses what a.ts exports. */
  function project(): string {
    const root = join(tempDir(), 'project');
    mkdirSync(root);
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, types: [], skipLibCheck: true },
        include: ['*.ts'],
      }),
    );
    writeFileSync(join(root, 'a.ts'), 'export const count: number = 1;\n');
    writeFileSync(join(root, 'b.ts'), "import { count } from './a';\nexport const next: number = count + 1;\n");
    return root;
  }
  const job = typecheckJob('tsc main', 'tsconfig.json');

  it('moves to another clone as it is, and rechecks what a change reaches there', () => {
    const folder = tempDir();
    const first = project();
    expect(runJob(first, job, folder)).toMatchObject({ offered: false, kept: true, status: 0 });
    const kept = readFileSync(join(folder, job.cache.file), 'utf8');
    // Paths relative to itself: nothing of the first clone's folder in it.
    expect(kept).not.toContain(first);

    const same = cloneOf(first);
    expect(runJob(same, job, folder)).toMatchObject({ offered: true, status: 0 });

    // b.ts as it was, a.ts changed under it: the error is b.ts's, found with the cache offered.
    const changed = cloneOf(first);
    writeFileSync(join(changed, 'a.ts'), "export const count: string = 'one';\n");
    const run = runJob(changed, job, folder);
    expect(run).toMatchObject({ offered: true, status: 2 });
    expect(run.output).toMatch(/b\.ts\(2,\d+\): error TS2322/);
  });

  it('leaves out a kept file that is not whole, and the check runs in full', () => {
    const folder = tempDir();
    writeFileSync(join(folder, job.cache.file), '{"program": {"fileNames": [');
    const root = project();
    writeFileSync(join(root, 'b.ts'), 'export const next: number = "two";\n');
    const run = runJob(root, job, folder);
    expect(run).toMatchObject({ offered: false, status: 2, kept: true });
    expect(run.output).toMatch(/b\.ts\(1,\d+\): error TS2322/);
  });
});

describe('the lint cache', () => {
  /** A project whose one rule writes each file it lints to `seen.log`, beside no-debugger. */
  function project(): string {
    const root = join(tempDir(), 'project');
    mkdirSync(root);
    writeFileSync(
      join(root, 'eslint.config.js'),
      `import { appendFileSync } from 'node:fs';
export default [{
  files: ['**/*.js'],
  ignores: ['eslint.config.js'],
  plugins: { probe: { rules: { seen: { create(context) {
    appendFileSync(new URL('./seen.log', import.meta.url), context.filename.split(/[\\\\/]/).pop() + '\\n');
    return {};
  } } } } },
  rules: { 'probe/seen': 'error', 'no-debugger': 'error' },
}];
`,
    );
    writeFileSync(join(root, 'package.json'), '{"type": "module"}\n');
    writeFileSync(join(root, 'one.js'), 'export const one = 1;\n');
    writeFileSync(join(root, 'two.js'), 'export const two = 2;\n');
    return root;
  }
  const job = lintJob('eslint', ['--max-warnings', '0', '.']);
  const seen = (root: string) => {
    const log = join(root, 'seen.log');
    const files = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).sort() : [];
    writeFileSync(log, '');
    return files;
  };

  it("takes another clone's results for the same content, and lints what changed", () => {
    const folder = tempDir();
    const first = project();
    expect(runJob(first, job, folder)).toMatchObject({ offered: false, kept: true, status: 0 });
    expect(seen(first)).toEqual(['one.js', 'two.js']);
    const kept = readFileSync(join(folder, job.cache.file), 'utf8');
    expect(kept).not.toContain(first);
    expect(kept).toContain(ROOT_MARK);

    const second = cloneOf(first);
    seen(second);
    expect(runJob(second, job, folder)).toMatchObject({ offered: true, status: 0 });
    expect(seen(second)).toEqual([]);
    // Its own copy names its own folder.
    expect(readFileSync(join(second, PROJECT_CACHE, job.cache.file), 'utf8')).toContain(
      JSON.stringify(second).slice(1, -1),
    );

    const changed = cloneOf(first);
    seen(changed);
    appendFileSync(join(changed, 'two.js'), 'debugger;\n');
    const run = runJob(changed, job, folder);
    expect(run).toMatchObject({ offered: true, status: 1 });
    expect(seen(changed)).toEqual(['two.js']);
    expect(run.output).toContain('no-debugger');
  });

  it('offers nothing to a project that has its own, and nothing when switched off', () => {
    const folder = tempDir();
    const root = project();
    expect(runJob(root, job, folder).kept).toBe(true);
    expect(restore(root, job.cache, folder)).toBe(false);
    expect(checkCacheFolder(root, { CQC_CHECK_CACHE: 'off' })).toBeNull();
    expect(keep(root, job.cache, null)).toBe(false);
  });
});

describe('the folder and the paths in it', () => {
  it('is one per lockfile, under the folder CQC_CHECK_CACHE names or the user cache', () => {
    const root = tempDir();
    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3}');
    const first = checkCacheFolder(root, { CQC_CHECK_CACHE: '/kept' });
    expect(first).toMatch(/^\/kept\/[0-9a-f]{16}$/);
    expect(checkCacheFolder(root, { XDG_CACHE_HOME: '/x' })).toMatch(/^\/x\/cloud-queue-console\/check\/[0-9a-f]{16}$/);
    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {}}');
    expect(checkCacheFolder(root, { CQC_CHECK_CACHE: '/kept' })).not.toBe(first);
  });

  it('says again only paths inside the folder, never a longer name that starts like it', () => {
    const text = JSON.stringify(['/work/x', '/work/x/a.ts', '/work/xy/b.ts', 'C:\\work\\x\\c.ts']);
    expect(JSON.parse(relocated(text, '/work/x', ROOT_MARK))).toEqual([
      ROOT_MARK,
      `${ROOT_MARK}/a.ts`,
      '/work/xy/b.ts',
      'C:\\work\\x\\c.ts',
    ]);
    expect(JSON.parse(relocated(text, 'C:\\work\\x', '/here'))).toContain('/here\\c.ts');
  });
});
