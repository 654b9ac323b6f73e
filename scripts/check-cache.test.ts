/**
 * The check stage's caches kept between clones (scripts/check-cache.mjs), run with the real tools
 * as `npm test` runs them: a second clone's typecheck and lint take what the first learned, and
 * still see every error its own changes make, in the file changed or in a file that depends on it;
 * a new lockfile, or the caches switched off, starts from nothing.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../main/engine/testing/temp-dirs.js';
import {
  argsOf,
  type CachedJob,
  checkCachePlaces,
  keep,
  lintJob,
  relocated,
  restore,
  ROOT_MARK,
  typecheckJob,
} from './check-cache.mjs';

const tempDir = tempDirs('cqc-check-cache-');
const BIN = join(import.meta.dirname, '..', 'node_modules', '.bin');

/** Runs a job as scripts/test.mjs does: its cache offered before, kept after; `off` runs it without. */
function runJob(root: string, job: CachedJob, user: string | 'off', extra: string[] = []) {
  const places = checkCachePlaces(root, { CQC_CHECK_CACHE: user });
  const offered = places ? restore(places, job.cache) : false;
  const since = Date.now();
  const result = spawnSync(join(BIN, job.command), [...argsOf(job, places), ...extra], { cwd: root, encoding: 'utf8' });
  const kept = places ? keep(places, job.cache, since) : false;
  return { offered, kept, status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A project folder with `files` in it and a lockfile. */
function project(files: Record<string, string>): string {
  const root = join(tempDir(), 'project');
  mkdirSync(root);
  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3}\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

/** A second clone of `root`: its sources only, none of the tools' files. */
function cloneOf(root: string): string {
  const clone = join(tempDir(), 'clone');
  cpSync(root, clone, { recursive: true, filter: (from) => !from.includes('node_modules') });
  return clone;
}

describe('the typecheck cache', () => {
  const job = typecheckJob('tsc main', 'tsconfig.json');
  // The project's own strictness; a.ts's type costs the checker hundreds of instantiations, so
  // `--diagnostics` tells a file checked from one taken from the cache.
  const sources = () =>
    project({
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          isolatedModules: true,
          verbatimModuleSyntax: true,
          module: 'ESNext',
          moduleResolution: 'Bundler',
          target: 'ES2023',
          lib: ['ES2023'],
          types: [],
          skipLibCheck: true,
        },
        include: ['*.ts'],
      }),
      'a.ts':
        "type Count<N extends number, T extends unknown[] = []> = T['length'] extends N ? T : Count<N, [...T, T['length']]>;\nexport const count: Count<30>['length'] = 30;\n",
      'b.ts': "import { count } from './a';\nexport const next: number = count + 1;\n",
    });
  const instantiations = (output: string) => Number(/Instantiations:\s+(\d+)/.exec(output)?.[1]);

  it('checks nothing again in another clone that changed nothing, and what a change reaches in one that did', () => {
    const user = tempDir();
    const first = sources();
    const cold = runJob(first, job, user, ['--diagnostics']);
    expect(cold).toMatchObject({ offered: false, kept: true, status: 0 });
    expect(instantiations(cold.output)).toBeGreaterThan(100);
    const places = checkCachePlaces(first, { CQC_CHECK_CACHE: user })!;
    // Paths relative to itself: nothing of the first clone's folder in it.
    expect(readFileSync(join(places.user, job.cache.file), 'utf8')).not.toContain(first);

    const same = runJob(cloneOf(first), job, user, ['--diagnostics']);
    expect(same).toMatchObject({ offered: true, status: 0 });
    expect(instantiations(same.output)).toBe(0);

    // b.ts as it was, a.ts changed under it: the error is b.ts's, found with the cache offered.
    const changed = cloneOf(first);
    writeFileSync(join(changed, 'a.ts'), "export const count: string = 'one';\n");
    const run = runJob(changed, job, user);
    expect(run).toMatchObject({ offered: true, status: 2 });
    expect(run.output).toMatch(/b\.ts\(2,\d+\): error TS2322/);
  });

  it('leaves out a kept file that is not whole, and the check runs in full', () => {
    const user = tempDir();
    const root = sources();
    const places = checkCachePlaces(root, { CQC_CHECK_CACHE: user })!;
    mkdirSync(places.user, { recursive: true });
    writeFileSync(join(places.user, job.cache.file), '{"program": {"fileNames": [');
    writeFileSync(join(root, 'b.ts'), 'export const next: number = "two";\n');
    const run = runJob(root, job, user);
    expect(run).toMatchObject({ offered: false, status: 2, kept: true });
    expect(run.output).toMatch(/b\.ts\(1,\d+\): error TS2322/);
  });

  it('keeps only what the tool wrote in this run', () => {
    const user = tempDir();
    const root = sources();
    const places = checkCachePlaces(root, { CQC_CHECK_CACHE: user })!;
    mkdirSync(places.project, { recursive: true });
    writeFileSync(join(places.project, job.cache.file), '{"left": "by an earlier run"}');
    expect(keep(places, job.cache, Date.now() + 60_000)).toBe(false);
    expect(existsSync(join(places.user, job.cache.file))).toBe(false);
  });
});

describe('the lint cache', () => {
  const job = lintJob('eslint', ['--max-warnings', '0', '.']);
  /** A project whose one rule writes each file it lints to `seen.log`, beside no-debugger. */
  const sources = () =>
    project({
      'eslint.config.js': `import { appendFileSync } from 'node:fs';
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
      'package.json': '{"type": "module"}\n',
      'one.js': 'export const one = 1;\n',
      'two.js': 'export const two = 2;\n',
    });
  /** The files linted since the last call. */
  const seen = (root: string) => {
    const log = join(root, 'seen.log');
    const files = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).sort() : [];
    writeFileSync(log, '');
    return files;
  };

  it("takes another clone's results for the same content, and lints what changed", () => {
    const user = tempDir();
    const first = sources();
    expect(runJob(first, job, user)).toMatchObject({ offered: false, kept: true, status: 0 });
    expect(seen(first)).toEqual(['one.js', 'two.js']);
    const places = checkCachePlaces(first, { CQC_CHECK_CACHE: user })!;
    const kept = readFileSync(join(places.user, job.cache.file), 'utf8');
    expect(kept).not.toContain(first);
    expect(kept).toContain(ROOT_MARK);

    const second = cloneOf(first);
    seen(second);
    expect(runJob(second, job, user)).toMatchObject({ offered: true, status: 0 });
    expect(seen(second)).toEqual([]);

    const changed = cloneOf(first);
    seen(changed);
    appendFileSync(join(changed, 'two.js'), 'debugger;\n');
    const run = runJob(changed, job, user);
    expect(run).toMatchObject({ offered: true, status: 1 });
    expect(seen(changed)).toEqual(['two.js']);
    expect(run.output).toContain('no-debugger');
  });

  it('starts afresh, in the project too, once the lockfile changes (a plugin may have)', () => {
    const user = tempDir();
    const root = sources();
    expect(runJob(root, job, user).kept).toBe(true);
    seen(root);
    expect(runJob(root, job, user)).toMatchObject({ offered: false, status: 0 });
    expect(seen(root)).toEqual([]);
    // `npm install` of another plugin: node_modules (and the project's cache in it) stays.
    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {}}\n');
    expect(runJob(root, job, user).status).toBe(0);
    expect(seen(root)).toEqual(['one.js', 'two.js']);
  });

  it('runs without any cache when switched off, though the project and the user have one', () => {
    const user = tempDir();
    const root = sources();
    expect(runJob(root, job, user).kept).toBe(true);
    seen(root);
    expect(runJob(root, job, 'off')).toMatchObject({ offered: false, kept: false, status: 0 });
    expect(seen(root)).toEqual(['one.js', 'two.js']);
    expect(argsOf(job, null)).toEqual(job.args);
  });
});

describe('the folders and the paths in them', () => {
  it('are one per lockfile, under the folder CQC_CHECK_CACHE names or the user cache', () => {
    const root = project({});
    const first = checkCachePlaces(root, { CQC_CHECK_CACHE: '/kept' });
    expect(first?.user).toMatch(/^\/kept\/[0-9a-f]{16}$/);
    expect(first?.project).toMatch(/node_modules\/\.cache\/cloud-queue-console\/[0-9a-f]{16}$/);
    expect(checkCachePlaces(root, { XDG_CACHE_HOME: '/x' })?.user).toMatch(
      /^\/x\/cloud-queue-console\/check\/[0-9a-f]{16}$/,
    );
    // A relative folder is the current folder's, not one inside each clone.
    expect(checkCachePlaces(root, { CQC_CHECK_CACHE: 'kept' })?.user).toMatch(new RegExp(`^${process.cwd()}/kept/`));
    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {}}');
    expect(checkCachePlaces(root, { CQC_CHECK_CACHE: '/kept' })?.user).not.toBe(first?.user);
  });

  it('say again only whole paths inside the folder, never a longer name or a path within a text', () => {
    const text = JSON.stringify([
      '/work/x',
      '/work/x/a.ts',
      '/work/xy/b.ts',
      '/ci/work/x/c.ts',
      'see /work/x/a.ts',
      'C:\\work\\x\\d.ts',
    ]);
    expect(JSON.parse(relocated(text, '/work/x', ROOT_MARK))).toEqual([
      ROOT_MARK,
      `${ROOT_MARK}/a.ts`,
      '/work/xy/b.ts',
      '/ci/work/x/c.ts',
      'see /work/x/a.ts',
      'C:\\work\\x\\d.ts',
    ]);
    expect(JSON.parse(relocated(text, 'C:\\work\\x', '/here'))).toContain('/here\\d.ts');
    // A folder name with what a pattern or a replacement would read as its own.
    const odd = '/tmp/a $& (b) [c].d';
    expect(JSON.parse(relocated(JSON.stringify([`${odd}/e.ts`]), odd, ROOT_MARK))).toEqual([`${ROOT_MARK}/e.ts`]);
  });
});
