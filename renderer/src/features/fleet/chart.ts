/**
 * The Fleet area's charts as numbers: a fleet's ticks turned into per-second rates, a y axis
 * rounded up to a readable bound, and each series scaled into the SVG's box (y grows downward).
 */
import type { FleetPlayerState, FleetTick } from '@engine-api/fleet-types';

export interface ChartBox {
  width: number;
  height: number;
}

/** The smallest 1, 2, 2.5 or 5 × 10ⁿ at or above `max`: the top of the y axis (1 for an empty chart). */
export function niceMax(max: number): number {
  if (!(max > 0) || !Number.isFinite(max)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max - 1e-9 * power) return step * power;
  return 10 * power;
}

/** A count per tick as a rate per wall second: each tick's count over the wall time since the tick before. */
export function perSecond(series: readonly FleetTick[], key: 'requests' | 'retries' | 'errors'): number[] {
  return series.map((tick, i) => {
    const since = i === 0 ? 0 : series[i - 1]!.wallMs;
    const seconds = (tick.wallMs - since) / 1000;
    return seconds > 0 ? tick[key] / seconds : 0;
  });
}

export function stateSeries(series: readonly FleetTick[], state: FleetPlayerState): number[] {
  return series.map((tick) => tick.byState[state] ?? 0);
}

/**
 * The points of a polyline for each series in `box`, all on one y scale from 0 to `top`; x spans
 * the box whatever the count (one point sits at the left edge).
 */
export function scalePoints(values: readonly number[], top: number, box: ChartBox): [number, number][] {
  const n = values.length;
  const step = n > 1 ? box.width / (n - 1) : 0;
  const round = (v: number) => Math.round(v * 10) / 10;
  return values.map((value, i) => {
    const share = top > 0 ? Math.min(Math.max(value / top, 0), 1) : 0;
    return [round(i * step), round(box.height - share * box.height)];
  });
}

export function pointsAttribute(points: readonly [number, number][]): string {
  return points.map(([x, y]) => `${x},${y}`).join(' ');
}

/**
 * A threshold's measured value as the engine rounded it: no further than keeps it on its verdict's
 * side (thresholds.ts). `figure` made a p99 of 0.0135 s read "0 s" beside `p99<2s`, and a failing
 * 1.04 s "1 s" beside `p99<1s` (review).
 */
export function thresholdFigure(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return value.toLocaleString('en-US', { maximumFractionDigits: 12 });
}

/** A figure for an axis or a cell: whole above 10, one decimal below. */
export function figure(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return Math.abs(value) >= 10 ? Math.round(value).toLocaleString('en-US') : String(Math.round(value * 10) / 10);
}
