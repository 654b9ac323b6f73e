// `check` against valid servers drawn at random (composed.ts): every freedom the platform gives a
// server, mixed, must pass. A new seed each run, so that the runs over time cover what one run
// cannot; a failure names its seed and recipe, and `CQC_COMPOSED_SEED=<seed>` runs them again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../testing/cli';
import { composed, recipes, type Recipe } from './composed';
import { agrees, pool, runVariant, table, type CheckRunner } from './run';

const RUNS = Number(process.env.CQC_COMPOSED_RUNS ?? 24);
const SEED = Number(process.env.CQC_COMPOSED_SEED ?? Math.floor(Math.random() * 2 ** 31));

const inProcess: CheckRunner = async (args) => {
  const { code, stdout, stderr } = await runCli('check', ...args);
  return { exit: code, output: stdout + stderr };
};

describe('check against valid servers drawn at random', () => {
  it('draws every freedom, edits among them, and keeps a server that never shows earlier items from skipping back', () => {
    const drawn = fc.sample(recipes, { seed: 7, numRuns: 400 });
    const kinds = new Set(drawn.flatMap((r) => r.edits.map((edit) => edit.kind)));
    expect([...kinds].sort()).toEqual(['append', 'policy', 'prepend', 'remove-first', 'remove-last', 'remove-middle']);
    expect(new Set(drawn.map((r) => r.transfer)).size).toBe(4);
    expect(new Set(drawn.map((r) => r.base)).size).toBe(4);
    expect(drawn.some((r) => r.edits.length === 2)).toBe(true);
    expect(drawn.some((r) => r.count === 0) && drawn.some((r) => r.centred && r.firstAt > 0.5)).toBe(true);
    expect(drawn.filter((r) => r.maxPrevious === 0).every((r) => !r.canSkipBack)).toBe(true);
  });

  it(`passes each of ${RUNS} (seed ${SEED})`, async () => {
    const drawn: Recipe[] = fc.sample(recipes, { seed: SEED, numRuns: RUNS });
    const variants = drawn.map((recipe, i) => composed(recipe, `seed ${SEED} #${i}`));
    const verdicts = await pool(variants, 3, (v) => runVariant(v, inProcess, ['--timeout', '60']));
    const wrong = verdicts.flatMap((v, i) => (agrees(v) ? [] : [{ v, recipe: drawn[i] }]));
    const details = wrong.map(
      ({ v, recipe }) =>
        `${v.variant}: ${JSON.stringify(recipe)}\n  ${v.messages.join('\n  ')}\n  exit ${String(v.exit)}: ${v.output.split('\n').slice(-3).join(' | ')}`,
    );
    const message = `${table(verdicts)}\n\n${details.join('\n')}\nreplay: CQC_COMPOSED_SEED=${SEED} CQC_COMPOSED_RUNS=${RUNS}`;
    if (wrong.length > 0) console.error(message);
    expect(
      wrong.map(({ v }) => v.variant),
      message,
    ).toEqual([]);
  }, 600_000);
});
