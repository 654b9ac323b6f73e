/**
 * The figures the benches are held to: each bench prints its figure beside its aim
 * (`printAim`), and `npm run bench` lists them all at the end of the run (scripts/bench.mjs reads
 * them from the file BENCH_AIMS names, one JSON line each, formatted here).
 */
import { appendFileSync } from 'node:fs';
import { fmt } from './stats.js';

export interface Aim {
  label: string;
  value: number;
  unit: string;
  atLeast?: number;
  atMost?: number;
  /** More about the figure (its interval, its spread), printed beside it. */
  note?: string;
}

/** A figure in its unit: ratios with two decimals, `×` and `%` right after the number, others after a space. */
function inUnit(n: number, unit: string, digits: number): string {
  return `${fmt(n, digits)}${unit === '×' || unit === '%' ? '' : ' '}${unit}`;
}

export const valueText = ({ value, unit }: Pick<Aim, 'value' | 'unit'>): string =>
  inUnit(value, unit, unit === '×' ? 2 : 1);

export function aimText({ atLeast, atMost, unit }: Pick<Aim, 'atLeast' | 'atMost' | 'unit'>): string {
  const digits = (n: number) => (Number.isInteger(n) ? 0 : Math.abs(n) < 10 ? 2 : 1);
  return [
    atLeast !== undefined ? `≥ ${inUnit(atLeast, unit, digits(atLeast))}` : null,
    atMost !== undefined ? `≤ ${inUnit(atMost, unit, digits(atMost))}` : null,
  ]
    .filter(Boolean)
    .join(' and ');
}

export const metAim = ({ value, atLeast, atMost }: Aim): boolean =>
  (atLeast === undefined || value >= atLeast) && (atMost === undefined || value <= atMost);

/** Prints the figure with its aim, and hands it to `npm run bench`'s summary. */
export function printAim(
  label: string,
  value: number,
  unit: string,
  bounds: { atLeast?: number; atMost?: number },
  note?: string,
): void {
  const aim: Aim = { label, value, unit, ...bounds, ...(note ? { note } : {}) };
  console.log(
    `    aim · ${label}: ${valueText(aim)} (aim ${aimText(aim)}) → ${metAim(aim) ? 'met' : 'missed'}${note ? `; ${note}` : ''}`,
  );
  // Formatted here: scripts/bench.mjs runs without TypeScript and only prints them.
  const line = { ...aim, valueText: valueText(aim), aimText: aimText(aim), met: metAim(aim) };
  if (process.env.BENCH_AIMS) appendFileSync(process.env.BENCH_AIMS, `${JSON.stringify(line)}\n`);
}
