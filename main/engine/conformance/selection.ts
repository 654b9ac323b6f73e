/**
 * A run of some cases only (a replay of a report's failures, docs/contract/console.md §8): the
 * cases asked for and every case they build on or read the facts of, in suite order, so that each
 * one judges the same facts a whole run would have given it.
 */
import { EngineError } from '../api/errors.js';
import type { ConformanceCase } from './case.js';

export function selectCases(
  suite: readonly ConformanceCase[],
  ids: readonly string[] | undefined,
): readonly ConformanceCase[] {
  if (ids === undefined) return suite;
  const byId = new Map(suite.map((unit) => [unit.id, unit]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length)
    throw new EngineError(
      'invalid_input',
      `no case ${unknown.map((id) => JSON.stringify(id)).join(', ')} in the suite: the cases are ${[...byId.keys()].join(', ')}`,
    );
  const wanted = new Set<string>();
  const add = (id: string): void => {
    if (wanted.has(id)) return;
    wanted.add(id);
    const unit = byId.get(id);
    const before = unit?.readsEveryAnswer ? suite.slice(0, suite.indexOf(unit)).map((each) => each.id) : [];
    for (const need of [...(unit?.needs ?? []), ...(unit?.uses ?? []), ...before]) add(need);
  };
  ids.forEach(add);
  return suite.filter((unit) => wanted.has(unit.id));
}
