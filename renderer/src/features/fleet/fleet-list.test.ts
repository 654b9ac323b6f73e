import { describe, expect, it } from 'vitest';
import type { FleetListItem } from '@engine-api/fleet-types';
import { fleetShown, fleetState } from './fleet-list';

const fleet = (over: Partial<FleetListItem>): FleetListItem => ({
  id: 'fleet-1',
  status: 'finished',
  players: 10,
  startedAt: new Date(2026, 11, 2, 13, 5, 9).getTime(),
  finishedAt: null,
  verdict: null,
  errorKind: null,
  thresholds: [],
  ...over,
});

describe('the kept fleets', () => {
  it('shows the fleet the address names, else the newest, else none', () => {
    const list = [fleet({ id: 'fleet-new', status: 'running' }), fleet({ id: 'fleet-old' })];
    expect(fleetShown('fleet-old', list)).toBe('fleet-old');
    expect(fleetShown(null, list)).toBe('fleet-new');
    expect(fleetShown(null, [])).toBeNull();
  });

  it('says how each stands in a word, its tone beside it', () => {
    expect(fleetState(fleet({ status: 'running' }))).toEqual({ word: 'playing', tone: 'info' });
    expect(fleetState(fleet({ verdict: 'pass' }))).toEqual({ word: 'passed', tone: 'ok' });
    expect(fleetState(fleet({ verdict: 'fail' }))).toEqual({ word: 'failed', tone: 'bad' });
    // Stopped early: not "passed" (review).
    expect(fleetState(fleet({ status: 'stopped', verdict: 'pass' }))).toEqual({
      word: 'stopped, passed so far',
      tone: 'warn',
    });
    expect(fleetState(fleet({ status: 'stopped', verdict: 'fail' }))).toEqual({ word: 'stopped, failed', tone: 'bad' });
    expect(fleetState(fleet({ status: 'stopped' }))).toEqual({ word: 'stopped', tone: undefined });
    // Could not play: not one that failed a threshold (review).
    expect(fleetState(fleet({ verdict: 'fail', errorKind: 'unreachable' }))).toEqual({
      word: 'unreachable',
      tone: 'bad',
    });
    expect(fleetState(fleet({ verdict: 'fail', errorKind: 'setup' }))).toEqual({
      word: 'could not start',
      tone: 'bad',
    });
    expect(fleetState(fleet({}))).toEqual({ word: 'finished', tone: undefined });
  });
});
