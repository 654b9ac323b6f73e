/**
 * `npm test` (and `npm run typecheck`, `npm run lint`): the checks in stages, each stage's jobs side
 * by side on the runner's cores where they do not depend on each other, with each job's duration.
 *
 *   node scripts/test.mjs [stage …]     stages: install, build, check, unit, e2e (default: all, in order)
 *   node scripts/test.mjs typecheck     only the four TypeScript projects
 *   node scripts/test.mjs lint          only eslint and prettier
 *
 * Why stages run in this order: the build takes seconds and the rest needs it; `check` (typecheck,
 * lint and the pack check) fails on a typo long before the tests would; unit and end-to-end tests
 * each take both cores and have timeouts, so they run alone, one after the other.
 *
 * Output stays readable: a job running alone streams its output as it goes; jobs side by side keep
 * theirs and print it whole, under the job's name and duration, when they end. A stage that fails
 * lets its other jobs finish (so every failure is shown) and stops the stages after it.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { argsOf, checkCachePlaces, keep, lintJob, restore, typecheckJob } from './check-cache.mjs';
import { duration as seconds } from './durations.mjs';
import { ensureInstall } from './ensure-install.mjs';

const root = join(import.meta.dirname, '..');

/** One command of a stage. */
const job = (name, command, args) => ({ name, command, args });

// CPU seconds of each on the 2-core runner, without a cache: eslint 70-79, tsc main 50, tsc
// renderer tests 49, prettier 48, tsc renderer 35, tsc e2e 9, build 5; the pack check about 35 s
// of wall time (its SQLite binary no longer compiled: scripts/sqlite-prebuild.mjs). The typecheck
// and ESLint keep what they learned for the next run on this machine, a clean clone's too
// (scripts/check-cache.mjs): with nothing changed, eslint 4, tsc main 12, renderer tests 10, tsc
// renderer 7, tsc e2e 5. Prettier's cache cannot move between clones (check-cache.mjs says why).
const tscMain = typecheckJob('tsc main', 'tsconfig.json');
const tscE2e = typecheckJob('tsc e2e', 'e2e/tsconfig.json');
const tscRenderer = typecheckJob('tsc renderer', 'renderer/tsconfig.json');
const tscRendererTests = typecheckJob('tsc renderer tests', 'renderer/tsconfig.test.json');
const eslint = lintJob('eslint', ['--max-warnings', '0', '.']);
const prettier = job('prettier', 'prettier', ['--check', '--log-level', 'warn', '**/*.{ts,tsx,js,mjs,cjs,css}']);
const build = job('build', 'npm', ['run', 'build']);
// The packed tarball installed into an empty folder (better-sqlite3's binary served to it on
// loopback, not compiled): about 20-35 s, mostly npm, and nothing in it races a clock, so it shares
// the cores with the typecheck and lint rather than with the timed unit and end-to-end tests. It packs the build
// that the stage before made (package.check.ts skips a second, identical build).
const pack = job('pack', 'npm', ['run', 'test:pack']);

/**
 * Stages in order; jobs of a stage run at most `cores` at a time, in the order listed: longest
 * first, so no long job starts last beside an idle core. Check's order is the usual run's, its
 * caches warm (prettier and the pack check the longest); a cold one ends at most about 10 s later.
 */
const STAGES = {
  install: [],
  build: [build],
  check: [prettier, pack, eslint, tscMain, tscRendererTests, tscRenderer, tscE2e],
  unit: [job('unit', 'npm', ['run', 'test:unit'])],
  e2e: [job('e2e', 'npm', ['run', 'test:e2e'])],
};
const ALIASES = {
  typecheck: [['typecheck', [tscMain, tscRenderer, tscRendererTests, tscE2e]]],
  lint: [['lint', [eslint, prettier]]],
};

const cores = Math.max(1, Math.min(2, availableParallelism()));
// As under `npm run`: the project's own tools by name, wherever this script is started from.
const env = { ...process.env, PATH: [join(root, 'node_modules/.bin'), process.env.PATH].join(delimiter) };

/** Where the typecheck and ESLint keep their caches in this run; null without them. */
const checkCache = checkCachePlaces(root);

/** Runs one job; resolves with its exit status and duration, its output printed as it asked. */
function run(entry, live) {
  const started = Date.now();
  if (entry.cache && checkCache) restore(checkCache, entry.cache);
  // What the tool writes from now on is kept; a file offered above and left as it was is not.
  const since = Date.now();
  return new Promise((resolve) => {
    const child = spawn(entry.command, argsOf(entry, checkCache), {
      cwd: root,
      env,
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    const output = [];
    if (!live) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    const finish = (status) => {
      if (entry.cache && checkCache) keep(checkCache, entry.cache, since);
      const ms = Date.now() - started;
      const text = Buffer.concat(output).toString('utf8');
      process.stdout.write(`── ${entry.name}: ${status === 0 ? 'ok' : `FAILED (${status})`} in ${seconds(ms)}\n`);
      if (text.trim()) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      resolve({ name: entry.name, ok: status === 0, ms });
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(error.code ?? 'error');
    });
    child.on('close', (code, signal) => finish(code ?? signal));
  });
}

/** Runs a stage's jobs, `cores` at a time; resolves once all have ended. */
async function runStage(jobs) {
  const results = [];
  const queue = [...jobs];
  const alone = jobs.length === 1 || cores === 1;
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) results.push(await run(next, alone));
  };
  await Promise.all(Array.from({ length: Math.min(cores, jobs.length) }, lane));
  return results;
}

async function main(argv) {
  const chosen = argv.length === 0 ? Object.keys(STAGES) : argv;
  const plan = [];
  for (const name of chosen) {
    if (ALIASES[name]) plan.push(...ALIASES[name]);
    else if (STAGES[name]) plan.push([name, STAGES[name]]);
    else {
      process.stderr.write(
        `test: no stage "${name}" (stages: ${[...Object.keys(STAGES), ...Object.keys(ALIASES)].join(', ')})\n`,
      );
      return 2;
    }
  }
  // A stage run on its own (`npm run typecheck`, `node scripts/test.mjs unit`) needs the tools too.
  if (!plan.some(([name]) => name === 'install')) ensureInstall();
  const started = Date.now();
  const summary = [];
  for (const [name, jobs] of plan) {
    const stageStarted = Date.now();
    process.stdout.write(
      `test: ${name}${jobs.length > 1 ? ` (${jobs.map((entry) => entry.name).join(', ')}; ${cores} at a time)` : ''}\n`,
    );
    if (name === 'install') ensureInstall();
    const results = await runStage(jobs);
    summary.push(`${name} ${seconds(Date.now() - stageStarted)}`);
    const failed = results.filter((result) => !result.ok);
    if (failed.length > 0) {
      process.stdout.write(`test: ${failed.map((result) => result.name).join(', ')} failed; stopping after ${name}\n`);
      process.stdout.write(`test: ${summary.join(' · ')} · total ${seconds(Date.now() - started)}\n`);
      return 1;
    }
  }
  process.stdout.write(`test: passed · ${summary.join(' · ')} · total ${seconds(Date.now() - started)}\n`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
