/**
 * A fleet's thresholds judged against its figures (docs/fleet.md): each holds or not, with the
 * value shown beside it rounded no further than keeps it on its verdict's side. The parsing, pure
 * and shared with the renderer, is the API contract's (api/thresholds.ts).
 */
import type { FleetThresholdResult } from '../api/fleet-types.js';
import type { Operator, Threshold, ThresholdFigures } from '../api/thresholds.js';

export function holds(operator: Operator, actual: number, bound: number): boolean {
  // A latency with no request measured holds nothing: NaN fails every comparison, as it should.
  switch (operator) {
    case '<':
      return actual < bound;
    case '<=':
      return actual <= bound;
    case '>':
      return actual > bound;
    case '>=':
      return actual >= bound;
    case '==':
      return actual === bound;
    case '!=':
      return actual !== bound;
  }
}

export function judge(thresholds: readonly Threshold[], figures: ThresholdFigures): FleetThresholdResult[] {
  return thresholds.map((t) => {
    const actual = t.read(figures);
    const ok = t.exact ? holds(t.operator, t.exact.compare(figures), 0) : holds(t.operator, actual, t.bound);
    // A latency to a tenth of a ms: its sketch knows it within 1%, and 3011.571ms claimed more (audit).
    const digits = t.kind !== 'latency' ? 3 : t.unit === 's' ? 4 : 1;
    return { expression: t.expression, ok, actual: shownAs(ok, t, actual, digits), unit: t.unit };
  });
}

/**
 * The value shown beside a verdict, rounded no further than keeps it on the verdict's side of the
 * bound: `FAIL errors<=33.333% (measured 33.333%)` read as a pass (audit); it says 33.3333% now.
 */
function shownAs(ok: boolean, t: Threshold, actual: number, digits: number): number {
  for (let more = digits; more <= digits + 9; more++) {
    const shown = round(actual, more);
    if (holds(t.operator, shown, t.bound) === ok) return shown;
  }
  return actual;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Number.isFinite(value) ? Math.round(value * scale) / scale : value;
}
