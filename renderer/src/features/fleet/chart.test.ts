import { describe, expect, it } from 'vitest';
import type { FleetTick } from '@engine-api/fleet-types';
import { figure, niceMax, thresholdFigure, perSecond, pointsAttribute, scalePoints, stateSeries } from './chart';

const tick = (wallMs: number, requests: number, retries = 0): FleetTick => ({
  atMs: wallMs * 10,
  wallMs,
  requests,
  retries,
  errors: 0,
  violations: 0,
  byState: { IDLE: 0, BUFFERING: 1, PLAYING: requests, PAUSED: 0, SUSPENDED: 0 },
});

describe('niceMax', () => {
  it('rounds up to 1, 2, 2.5 or 5 × 10ⁿ', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(NaN)).toBe(1);
    expect(niceMax(1)).toBe(1);
    expect(niceMax(1.1)).toBe(2);
    expect(niceMax(23)).toBe(25);
    expect(niceMax(26)).toBe(50);
    expect(niceMax(51)).toBe(100);
    expect(niceMax(0.3)).toBe(0.5);
    expect(niceMax(9_999)).toBe(10_000);
  });
});

describe('perSecond', () => {
  it('divides each tick by the wall time since the one before', () => {
    expect(perSecond([tick(1000, 50), tick(2000, 80, 4), tick(2500, 10, 2)], 'requests')).toEqual([50, 80, 20]);
    expect(perSecond([tick(1000, 50), tick(2000, 80, 4), tick(2500, 10, 2)], 'retries')).toEqual([0, 4, 4]);
  });
  it('gives 0 for a tick with no wall time', () => {
    expect(perSecond([tick(0, 5)], 'requests')).toEqual([0]);
  });
});

describe('stateSeries', () => {
  it('reads one state of every tick', () => {
    expect(stateSeries([tick(1000, 3), tick(2000, 7)], 'PLAYING')).toEqual([3, 7]);
  });
});

describe('scalePoints', () => {
  const box = { width: 100, height: 50 };
  it('spans the width and puts 0 at the bottom, top at the top', () => {
    expect(scalePoints([0, 5, 10], 10, box)).toEqual([
      [0, 50],
      [50, 25],
      [100, 0],
    ]);
  });
  it('clamps values past the top and below zero into the box', () => {
    expect(scalePoints([20, -3], 10, box)).toEqual([
      [0, 0],
      [100, 50],
    ]);
  });
  it('puts a single point at the left edge', () => {
    expect(scalePoints([4], 8, box)).toEqual([[0, 25]]);
  });
  it('writes an SVG points attribute', () => {
    expect(pointsAttribute(scalePoints([0, 10], 10, box))).toBe('0,50 100,0');
  });
});

describe('thresholdFigure', () => {
  it('shows the value as the engine rounded it, so that it stays on its verdict’s side', () => {
    expect(thresholdFigure(0.0135)).toBe('0.0135');
    expect(thresholdFigure(1.04)).toBe('1.04');
    expect(thresholdFigure(33.3333)).toBe('33.3333');
    expect(thresholdFigure(12_345.6)).toBe('12,345.6');
    expect(thresholdFigure(NaN)).toBe('–');
  });
});

describe('figure', () => {
  it('keeps one decimal below 10 and groups thousands above', () => {
    expect(figure(2.345)).toBe('2.3');
    expect(figure(12_345.6)).toBe('12,346');
    expect(figure(NaN)).toBe('–');
  });
});
