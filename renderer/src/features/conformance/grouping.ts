/**
 * The result table's rows: every case of the suite (or of the run, for a run made by an older
 * suite), settled or still to come, grouped by the contract section it checks. Sections read in
 * the order of the contract: the platform's text first, then the console's own decisions, each
 * by section number (§2.3 before §4.3 before §7.1), as a reader of the contract looks them up.
 */
import type { ConformanceCaseInfo, ConformanceCaseResult, ConformanceRun } from '@engine-api/conformance-types';

/**
 * Where a case stands: settled (its result is there), `running` (the one the run is on now),
 * `pending` (after it), or `not-run` (the run ended without it: interrupted).
 */
export type CaseState = 'settled' | 'running' | 'pending' | 'not-run';

export interface CaseRow {
  info: ConformanceCaseInfo;
  result: ConformanceCaseResult | null;
  state: CaseState;
}

export interface SectionGroup {
  rule: string;
  rows: CaseRow[];
}

/** Each case of the suite in order, with its result in `run` if it settled. */
export function caseRows(
  suite: readonly ConformanceCaseInfo[],
  run: Pick<ConformanceRun, 'status' | 'cases'>,
): CaseRow[] {
  const settled = new Map(run.cases.map((result) => [result.id, result]));
  // Cases settle in suite order: the first one not settled is the one going on.
  let current = run.status === 'running';
  const rows: CaseRow[] = suite.map((info) => {
    const result = settled.get(info.id) ?? null;
    if (result) return { info, result, state: 'settled' };
    const state: CaseState = run.status !== 'running' ? 'not-run' : current ? 'running' : 'pending';
    current = false;
    return { info, result: null, state };
  });
  const known = new Set(suite.map((info) => info.id));
  for (const result of run.cases) if (!known.has(result.id)) rows.push({ info: result, result, state: 'settled' });
  return rows;
}

/** The case a running run is on now, or null. */
export function currentCase(rows: readonly CaseRow[]): ConformanceCaseInfo | null {
  return rows.find((row) => row.state === 'running')?.info ?? null;
}

/** Rows grouped by `rule`, the sections in the contract's order, the cases of each in suite order. */
export function groupBySection(rows: readonly CaseRow[]): SectionGroup[] {
  const groups = new Map<string, CaseRow[]>();
  for (const row of rows) groups.set(row.info.rule, [...(groups.get(row.info.rule) ?? []), row]);
  return [...groups].map(([rule, grouped]) => ({ rule, rows: grouped })).sort((a, b) => compareRules(a.rule, b.rule));
}

const DOCUMENT_ORDER = ['platform.md', 'console.md'];

interface ParsedRule {
  document: string;
  section: number[];
}

/** `docs/contract/platform.md §4.3` → platform.md, [4, 3]; anything else sorts after, by its text. */
function parseRule(rule: string): ParsedRule | null {
  const match = /([\w.-]+\.md)\s*§\s*([\d.]+)/.exec(rule);
  if (!match) return null;
  return { document: match[1]!, section: match[2]!.split('.').filter(Boolean).map(Number) };
}

export function compareRules(a: string, b: string): number {
  const pa = parseRule(a);
  const pb = parseRule(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a.localeCompare(b);
  const da = documentRank(pa.document);
  const db = documentRank(pb.document);
  if (da !== db) return da - db;
  if (pa.document !== pb.document) return pa.document.localeCompare(pb.document);
  for (let i = 0; i < Math.max(pa.section.length, pb.section.length); i++) {
    const diff = (pa.section[i] ?? -1) - (pb.section[i] ?? -1);
    if (diff !== 0) return diff;
  }
  return 0;
}

function documentRank(document: string): number {
  const rank = DOCUMENT_ORDER.indexOf(document);
  return rank === -1 ? DOCUMENT_ORDER.length : rank;
}

/**
 * The settled failures, then the warnings, each in suite order: what a person reads first
 * (docs/contract/console.md §8).
 */
export function findingRows(rows: readonly CaseRow[]): CaseRow[] {
  return [
    ...rows.filter((row) => row.result?.outcome === 'fail'),
    ...rows.filter((row) => row.result?.outcome === 'warn'),
  ];
}

export { firstFinding } from '@engine-api/conformance-text';
