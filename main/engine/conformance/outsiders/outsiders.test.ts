// `check` judged from outside: servers written from the contract alone, each with one defect
// (exit 1, exactly its case failed) or valid but unusual (exit 0, no case failed).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../testing/cli';
import { MUTANTS } from './mutants';
import { agrees, childProcess, pool, runVariant, table, type CheckRunner } from './run';
import { VALID } from './valid';

const CLI = resolve(__dirname, '../../../../out/cli/bin.js');

/**
 * Variants where the built suite and this file disagree, each with the rule that says which side
 * is believed wrong. They still run and are printed, but are left out of the assertion. Empty:
 * every disagreement found so far was fixed in the suite.
 */
export const UNRESOLVED: Record<string, string> = {};

/**
 * Variants judged by the built command line in a child process, as an integrator's CI runs it: a
 * valid server, one whose answers are gzipped, one that dies mid-play. The rest run the same
 * `main` in this process (a child's start costs more than most runs): the verdicts are about the
 * servers, and these three prove the built binary reaches the same ones.
 */
const BUILT = new Set(['baseline', 'gzip-answers', 'dies-after-six-tracks']);

const inProcess: CheckRunner = async (args) => {
  const { code, stdout, stderr } = await runCli('check', ...args);
  return { exit: code, output: stdout + stderr };
};

function timeoutArgs(): string[] {
  const help = execFileSync(process.execPath, [CLI, 'check', '--help'], { encoding: 'utf8' });
  return help.includes('--timeout') ? ['--timeout', '60'] : [];
}

describe('check against servers written from the contract alone', () => {
  it('has at least 30 mutants, each naming one case, and 15 valid servers', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(30);
    expect(VALID.length).toBeGreaterThanOrEqual(15);
    expect(MUTANTS.every((v) => v.expect !== 'pass')).toBe(true);
    expect(VALID.every((v) => v.expect === 'pass')).toBe(true);
    const names = [...MUTANTS, ...VALID].map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(UNRESOLVED).filter((name) => !names.includes(name))).toEqual([]);
    expect([...BUILT].filter((name) => !names.includes(name))).toEqual([]);
  });

  it('fails each mutant on exactly its case and passes each valid server, the built binary among the judges', async () => {
    expect(existsSync(CLI), `${CLI} is missing: run npm run build first`).toBe(true);
    const built = childProcess(CLI);
    const builtArgs = timeoutArgs();
    const started = Date.now();
    const verdicts = await pool([...MUTANTS, ...VALID], 3, (v) =>
      BUILT.has(v.name) ? runVariant(v, built, builtArgs) : runVariant(v, inProcess, ['--timeout', '60']),
    );
    const elapsed = Date.now() - started;
    const judged = verdicts.filter((v) => UNRESOLVED[v.variant] === undefined);
    const wrong = judged.filter((v) => !agrees(v));
    const details = wrong.map(
      (v) =>
        `${v.variant}:\n  ${v.messages.join('\n  ')}\n  exit ${String(v.exit)}: ${v.output.split('\n').slice(-3).join(' | ')}`,
    );
    const message = `${table(verdicts)}\n\n${details.join('\n')}\n(${verdicts.length} variants in ${elapsed} ms)`;
    if (wrong.length > 0) console.error(message);
    expect(
      wrong.map((v) => v.variant),
      message,
    ).toEqual([]);
  }, 900_000);
});
