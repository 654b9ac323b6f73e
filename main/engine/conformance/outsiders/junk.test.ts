// `check` against servers that answer junk, drawn at random (junk.ts): every run ends in bounded
// time with a failed case or "cannot reach", never a pass and never a crash. A new seed each run;
// a failure names it, and `CQC_JUNK_SEED=<seed>` runs the same draws again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../testing/cli';
import { junkPlans, junkServer } from './junk';
import { pool, runVariant, type CheckRunner } from './run';

const RUNS = Number(process.env.CQC_JUNK_RUNS ?? 16);
const SEED = Number(process.env.CQC_JUNK_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** The run's own deadline, and the most a run may take past it. */
const DEADLINE_S = 60;
const BOUND_MS = (DEADLINE_S + 15) * 1_000;

const inProcess: CheckRunner = async (args) => {
  const { code, stdout, stderr } = await runCli('check', ...args);
  return { exit: code, output: stdout + stderr };
};

describe('check against servers that answer junk', () => {
  it(`fails or cannot reach each of ${RUNS}, in bounded time (seed ${SEED})`, async () => {
    const plans = fc.sample(junkPlans, { seed: SEED, numRuns: RUNS });
    const verdicts = await pool(
      plans.map((plan, i) => junkServer(plan, `seed ${SEED} #${i}`)),
      3,
      (v) => runVariant(v, inProcess, ['--timeout', String(DEADLINE_S)]),
    );
    const wrong = verdicts.flatMap((v, i) =>
      (v.exit === 1 && v.failed.length > 0) || v.exit === 2
        ? v.ms < BOUND_MS
          ? []
          : [{ v, i, why: `took ${v.ms} ms` }]
        : [{ v, i, why: `exit ${String(v.exit)}` }],
    );
    const message = wrong
      .map(
        ({ v, i, why }) =>
          `${v.variant} (${why}): ${JSON.stringify(plans[i])}\n  ${v.output.split('\n').slice(-4).join('\n  ')}`,
      )
      .join('\n');
    expect(
      wrong.map(({ v }) => v.variant),
      `${message}\nreplay: CQC_JUNK_SEED=${SEED} CQC_JUNK_RUNS=${RUNS}`,
    ).toEqual([]);
    // Most draws get as far as a verdict on cases, not just "cannot reach".
    expect(verdicts.filter((v) => v.exit === 1).length).toBeGreaterThan(0);
  }, 900_000);
});
