import { describe, expect, it } from 'vitest';
import { DEFAULT_FLEET_FIELDS, parseFleetForm, type FleetFields } from './form';

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
    expect(parsed.ok ? null : parsed.errors.thresholds).toMatch(/^“p99 under 250” is not a threshold/);
    expect(parseFleetForm(fields({ thresholds: 'p(95)<=1s\nrps>10/s\n\n' })).ok).toBe(true);
  });
});
