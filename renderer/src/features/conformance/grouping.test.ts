import { describe, expect, it } from 'vitest';
import type { ConformanceCaseResult, ConformanceOutcome } from '@engine-api/conformance-types';
import { caseInfos } from '../../../../main/engine/conformance/suite';
import { caseRows, compareRules, currentCase, groupBySection } from './grouping';

const suite = caseInfos();

function settled(id: string, outcome: ConformanceOutcome = 'pass'): ConformanceCaseResult {
  const info = suite.find((c) => c.id === id)!;
  return { ...info, outcome, message: `${id} said so`, trafficIds: [1], durationMs: 3 };
}

describe('the result table of a run', () => {
  it('orders sections as the contract does: platform.md by section number, then console.md', () => {
    const rules = [
      'docs/contract/console.md §8',
      'docs/contract/platform.md §7.1',
      'docs/contract/platform.md §2.4',
      'docs/contract/console.md §4',
      'docs/contract/platform.md §2.3',
      'docs/contract/platform.md §8',
      'docs/contract/platform.md §4.3',
      'docs/contract/platform.md §5.7',
    ];
    expect([...rules].sort(compareRules)).toEqual([
      'docs/contract/platform.md §2.3',
      'docs/contract/platform.md §2.4',
      'docs/contract/platform.md §4.3',
      'docs/contract/platform.md §5.7',
      'docs/contract/platform.md §7.1',
      'docs/contract/platform.md §8',
      'docs/contract/console.md §4',
      'docs/contract/console.md §8',
    ]);
    // §10 after §9 (numbers, not text), a section before its subsections, an unreadable rule last.
    expect(['x.md §10', 'a rule', 'x.md §9.1', 'x.md §9'].sort(compareRules)).toEqual([
      'x.md §9',
      'x.md §9.1',
      'x.md §10',
      'a rule',
    ]);
  });

  it('groups every case of the suite under its rule, once, in suite order within a section', () => {
    const groups = groupBySection(caseRows(suite, { status: 'passed', cases: suite.map((c) => settled(c.id)) }));
    expect(groups.flatMap((g) => g.rows.map((r) => r.info.id)).sort()).toEqual(suite.map((c) => c.id).sort());
    for (const group of groups) expect(group.rows.every((row) => row.info.rule === group.rule)).toBe(true);
    const requests = groups.find((g) => g.rule === 'docs/contract/platform.md §4.3')!;
    expect(requests.rows.map((r) => r.info.id)).toEqual(suite.filter((c) => c.rule === requests.rule).map((c) => c.id));
    expect(groups[0]!.rule).toBe('docs/contract/platform.md §2.3');
    expect(groups.at(-1)!.rule).toBe('docs/contract/console.md §8');
  });

  it('marks, while a run goes on, the first case not settled as running and the rest as to come', () => {
    const rows = caseRows(suite, { status: 'running', cases: [settled(suite[0]!.id), settled(suite[1]!.id, 'fail')] });
    expect(rows.map((r) => r.state).slice(0, 4)).toEqual(['settled', 'settled', 'running', 'pending']);
    expect(rows[1]!.result?.outcome).toBe('fail');
    expect(currentCase(rows)?.id).toBe(suite[2]!.id);
    expect(rows.filter((r) => r.state === 'running')).toHaveLength(1);
  });

  it('says which cases an ended run never reached, and that none runs now', () => {
    const rows = caseRows(suite, { status: 'failed', cases: [settled(suite[0]!.id)] });
    expect(rows.slice(1).every((r) => r.state === 'not-run')).toBe(true);
    expect(currentCase(rows)).toBeNull();
  });

  it('keeps a case the run settled that the suite no longer has, and works before the suite is known', () => {
    const old = { ...settled('context'), id: 'retired.case', rule: 'docs/contract/platform.md §4.3' };
    expect(caseRows(suite, { status: 'passed', cases: [old] }).at(-1)).toMatchObject({
      info: { id: 'retired.case' },
      state: 'settled',
    });
    expect(caseRows([], { status: 'running', cases: [settled('context')] }).map((r) => r.info.id)).toEqual(['context']);
  });
});
