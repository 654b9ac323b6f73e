// `check` against valid servers drawn at random (composed.ts): every freedom the platform gives a
// server, mixed, must pass, and the same with one outsider defect on top (mutants.ts) must not.
// A new seed each run, so that the runs over time cover what one run cannot; a failure names its
// seed and recipe, and `CQC_COMPOSED_SEED=<seed>` runs them again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../testing/cli';
import { composed, defectRecipes, defectShows, recipes, withDefect, type Recipe } from './composed';
import { MUTANTS } from './mutants';
import type { Variant } from './variant';
import { agrees, pool, runVariant, table, type CheckRunner, type Verdict } from './run';

const RUNS = Number(process.env.CQC_COMPOSED_RUNS ?? 24);
const DEFECTIVE_RUNS = Math.ceil(RUNS * 0.75);
const SEED = Number(process.env.CQC_COMPOSED_SEED ?? Math.floor(Math.random() * 2 ** 31));

const inProcess: CheckRunner = async (args) => {
  const { code, stdout, stderr } = await runCli('check', ...args);
  return { exit: code, output: stdout + stderr };
};

describe('check against valid servers drawn at random', () => {
  it('draws every freedom, edits among them, and keeps a server that never shows earlier items from skipping back', () => {
    const drawn = fc.sample(recipes, { seed: 7, numRuns: 400 });
    const kinds = new Set(drawn.flatMap((r) => r.edits.map((edit) => edit.kind)));
    expect([...kinds].sort()).toEqual([
      'append',
      'policy',
      'prepend',
      'remove-first',
      'remove-last',
      'remove-middle',
      'rename-middle',
    ]);
    expect(new Set(drawn.map((r) => r.transfer)).size).toBe(5);
    expect(new Set(drawn.map((r) => r.base)).size).toBe(4);
    expect(drawn.some((r) => r.edits.length === 2)).toBe(true);
    expect(drawn.some((r) => r.count === 0) && drawn.some((r) => r.centred && r.firstAt > 0.5)).toBe(true);
    expect(drawn.filter((r) => r.maxPrevious === 0).every((r) => !r.canSkipBack)).toBe(true);
  });

  it(`passes each of ${RUNS} (seed ${SEED})`, async () => {
    const drawn: Recipe[] = fc.sample(recipes, { seed: SEED, numRuns: RUNS });
    const variants = drawn.map((recipe, i) => composed(recipe, `seed ${SEED} #${i}`));
    await judge(variants, drawn, agrees);
  }, 600_000);

  // Valid servers a random seed once failed, kept: each run draws new ones, these stay judged.
  it.each([
    // Edits by the cases emptied a 2-item queue before the play-through's load (qv-1 to qv-3):
    // "expected the load to start the queue", a FAIL of a valid server (CI, December 2026).
    { seed: 1677668436, index: 7 },
  ])(
    'passes seed $seed #$index, which a run once failed',
    async ({ seed, index }) => {
      const recipe = fc.sample(recipes, { seed, numRuns: index + 1 })[index]!;
      await judge([composed(recipe, `seed ${seed} #${index}`)], [recipe], agrees);
    },
    120_000,
  );

  it(`fails each of ${DEFECTIVE_RUNS} with one defect on top (seed ${SEED})`, async () => {
    const drawn = fc.sample(
      fc.tuple(defectRecipes, fc.constantFrom(...MUTANTS)).filter(([recipe, mutant]) => defectShows(mutant, recipe)),
      { seed: SEED, numRuns: DEFECTIVE_RUNS },
    );
    const variants = drawn.map(([recipe, mutant], i) => withDefect(recipe, mutant, `seed ${SEED} #${i}`));
    // Any failed case will do: on another server the defect may first show in another case.
    await judge(
      variants,
      drawn.map(([recipe]) => recipe),
      (v) => v.exit === 1 && v.failed.length > 0,
    );
  }, 600_000);
});

/** Runs `check` against each variant, three at a time, and names every verdict `right` refuses. */
async function judge(variants: Variant[], drawn: Recipe[], right: (v: Verdict) => boolean): Promise<void> {
  const verdicts = await pool(variants, 3, (v) => runVariant(v, inProcess, ['--timeout', '60']));
  const wrong = verdicts.flatMap((v, i) => (right(v) ? [] : [{ v, recipe: drawn[i] }]));
  const details = wrong.map(
    ({ v, recipe }) =>
      `${v.variant}: ${v.expect} on ${JSON.stringify(recipe)}\n  ${v.messages.join('\n  ')}\n  exit ${String(v.exit)}: ${v.output.split('\n').slice(-3).join(' | ')}`,
  );
  const message = `${table(verdicts, right)}\n\n${details.join('\n')}\nreplay: CQC_COMPOSED_SEED=${SEED} CQC_COMPOSED_RUNS=${RUNS}`;
  if (wrong.length > 0) console.error(message);
  expect(
    wrong.map(({ v }) => v.variant),
    message,
  ).toEqual([]);
}
