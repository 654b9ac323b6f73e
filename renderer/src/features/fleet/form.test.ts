import { describe, expect, it } from 'vitest';
import type { FaultPreset } from '@engine-api/commands/faults';
import { DEFAULT_FLEET_FIELDS, OUTAGE_FAULT, parseFleetFaults, parseFleetForm, type FleetFields } from './form';

const fields = (change: Partial<FleetFields>): FleetFields => ({ ...DEFAULT_FLEET_FIELDS, ...change });

describe('parseFleetForm', () => {
  it('reads the defaults into a start input, seconds as engine ms', () => {
    const parsed = parseFleetForm(fields({ players: '20', duration: '20', ramp: '2', speed: '10' }));
    expect(parsed).toEqual({
      ok: true,
      input: {
        players: 20,
        durationMs: 20_000,
        rampMs: 2_000,
        speed: 10,
        skipRate: 0.1,
        pauseRate: 0.05,
        seekRate: 0.05,
        seed: 1,
        thresholds: ['p99<250ms', 'errors<1%', 'violations==0'],
      },
    });
  });

  it('sends a base URL and its authorization only when given', () => {
    const parsed = parseFleetForm(
      fields({ baseUrl: ' https://q.example/{player}/ ', authorization: 'Bearer x', thresholds: '' }),
    );
    expect(parsed.ok && parsed.input).toMatchObject({
      baseUrl: 'https://q.example/{player}/',
      authorization: 'Bearer x',
      thresholds: [],
    });
  });

  it('says every bad field at once, each beside its own', () => {
    const parsed = parseFleetForm(
      fields({ players: '0', duration: 'ten', speed: '', skipRate: '1.5', seed: '2.5', baseUrl: 'ftp://x' }),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual({
      players: 'Players must be from 1 to 20,000.',
      duration: 'Duration must be a number, not “ten”.',
      speed: 'Speed is needed.',
      skipRate: 'Skip rate must be from 0 to 1.',
      seed: 'Seed must be a whole number.',
      baseUrl: 'Base URL must start with http:// or https:// (empty: the console’s reference server).',
    });
  });

  it('refuses a ramp longer than the fleet, and an authorization with nowhere to go', () => {
    const parsed = parseFleetForm(fields({ duration: '10', ramp: '11', authorization: 'Bearer x' }));
    expect(parsed.ok ? null : parsed.errors).toEqual({
      ramp: 'Ramp must not be longer than the duration.',
      authorization: 'Authorization is sent to a Base URL: give one, or leave this empty.',
    });
  });

  it('names a threshold that is not METRIC OP NUMBER[UNIT]', () => {
    const parsed = parseFleetForm(fields({ thresholds: 'p99<250ms\np99 under 250' }));
    expect(parsed.ok ? null : parsed.errors.thresholds).toBe(
      'Threshold "p99 under 250" is not METRIC OP NUMBER[UNIT] (e.g. p99<250ms, errors<1%, violations==0).',
    );
    expect(parseFleetForm(fields({ thresholds: 'p(95)<=1s\nrps>10/s\n\n' })).ok).toBe(true);
  });

  it('names every threshold the engine would refuse, in its words, before anything is sent (ui-x3 U7)', () => {
    const parsed = parseFleetForm(fields({ thresholds: 'errors<1\np99<250ms\nlatency<5\nviolations>=0' }));
    expect(parsed.ok ? null : parsed.errors.thresholds).toBe(
      [
        'Threshold errors<1: holds unless every request failed (without %, errors is a share from 0 to 1: write errors<1% for a percentage).',
        'Threshold latency<5: unknown metric "latency"; the metrics are p50, p90, p95, p99 (any pN or p(N)), max, errors (a rate), rps, requests, retries, transportErrors, violations.',
        'Threshold violations>=0: holds whatever the run, so it checks nothing.',
      ].join(' '),
    );
  });

  it('sends workers only when given, as a whole number of threads', () => {
    const plain = parseFleetForm(fields({}));
    expect(plain.ok && plain.input).not.toHaveProperty('workers');
    const two = parseFleetForm(fields({ workers: ' 2 ' }));
    expect(two.ok && two.input.workers).toBe(2);
    const bad = parseFleetForm(fields({ workers: '1.5' }));
    expect(bad.ok ? null : bad.errors.workers).toBe('Workers must be a whole number.');
    const zero = parseFleetForm(fields({ workers: '0' }));
    expect(zero.ok ? null : zero.errors.workers).toBe('Workers must be from 1 to 64.');
  });
});

const storm: FaultPreset = {
  id: '503-storm',
  label: '503 storm with Retry-After',
  description: '…',
  rule: { target: 'cloudQueue', match: {}, action: { type: 'status', status: 503, retryAfter: 3 }, label: '503 storm' },
};

describe('parseFleetFaults', () => {
  it('reads the one-minute outage into a timed rule, the preset’s own, in engine ms', () => {
    const { faults, errors } = parseFleetFaults([OUTAGE_FAULT], [storm], 300);
    expect(errors).toEqual({});
    expect(faults).toEqual([
      {
        rule: { ...storm.rule, label: '503 storm with Retry-After (fleet, from 10 s)' },
        startMs: 10_000,
        durationMs: 60_000,
      },
    ]);
  });

  it('leaves the duration out when empty: on until the fleet ends', () => {
    const { faults } = parseFleetFaults([{ preset: '503-storm', start: '0', duration: ' ' }], [storm], 60);
    expect(faults).toHaveLength(1);
    expect(faults[0]).not.toHaveProperty('durationMs');
  });

  it('says each row’s problem beside it, and the form carries them', () => {
    const drafts = [
      { preset: 'gone', start: '5', duration: '' },
      { preset: '503-storm', start: '90', duration: '0' },
      { preset: '503-storm', start: 'soon', duration: '10' },
    ];
    const { faults, errors } = parseFleetFaults(drafts, [storm], 60);
    expect(faults).toEqual([]);
    expect(errors).toEqual({
      0: { preset: 'Choose a fault.' },
      1: { start: 'Start must be before the fleet ends.', duration: 'Duration must be from 1 to 86,400.' },
      2: { start: 'Start must be a number, not “soon”.' },
    });
    const form = parseFleetForm(fields({ duration: '60' }), drafts, [storm]);
    expect(form.ok ? null : form.faultErrors).toEqual(errors);
  });

  it('puts the timed rules in the start input', () => {
    const parsed = parseFleetForm(fields({ duration: '300' }), [OUTAGE_FAULT], [storm]);
    expect(parsed.ok && parsed.input.faults).toEqual([
      expect.objectContaining({ startMs: 10_000, durationMs: 60_000 }),
    ]);
  });
});
