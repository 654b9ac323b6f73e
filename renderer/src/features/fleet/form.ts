/**
 * The fleet form's fields as typed (strings, kept as they are on an error) and their reading into
 * a `fleets.start` input, each field checked against the engine's own bounds, so a refusal is said
 * beside its field before anything is sent.
 */
import type { FleetStartInput } from '@engine-api/fleet-types';

export interface FleetFields {
  players: string;
  /** Seconds of engine time. */
  duration: string;
  ramp: string;
  speed: string;
  skipRate: string;
  pauseRate: string;
  seekRate: string;
  seed: string;
  baseUrl: string;
  authorization: string;
  /** One k6-style threshold a line. */
  thresholds: string;
}

export type FleetFieldErrors = Partial<Record<keyof FleetFields, string>>;

export type ParsedFleetForm = { ok: true; input: FleetStartInput } | { ok: false; errors: FleetFieldErrors };

/** The engine's bounds (main/engine/api/commands/fleets.ts), restated for the form. */
export const FLEET_LIMITS = { players: 20_000, durationSec: 86_400, speed: 1_000, seed: 4_294_967_295 } as const;

export const DEFAULT_FLEET_FIELDS: FleetFields = {
  players: '100',
  duration: '60',
  ramp: '10',
  speed: '1',
  skipRate: '0.1',
  pauseRate: '0.05',
  seekRate: '0.05',
  seed: '1',
  baseUrl: '',
  authorization: '',
  thresholds: 'p99<250ms\nerrors<1%\nviolations==0',
};

const THRESHOLD_SHAPE = /^([A-Za-z][A-Za-z0-9_.()]*)\s*(<=|>=|==|!=|<|>)\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|%|\/s)?$/;

type Reading = { ok: true; value: number } | { ok: false; message: string };

function number(
  text: string,
  what: string,
  { min, max, integer }: { min: number; max: number; integer: boolean },
): Reading {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: `${what} is needed.` };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { ok: false, message: `${what} must be a number, not “${trimmed}”.` };
  if (integer && !Number.isInteger(value)) return { ok: false, message: `${what} must be a whole number.` };
  if (value < min || value > max)
    return {
      ok: false,
      message: `${what} must be from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}.`,
    };
  return { ok: true, value };
}

export function parseFleetForm(fields: FleetFields): ParsedFleetForm {
  const errors: FleetFieldErrors = {};
  const read = (key: keyof FleetFields, reading: Reading): number => {
    if (reading.ok) return reading.value;
    errors[key] = reading.message;
    return NaN;
  };
  const players = read(
    'players',
    number(fields.players, 'Players', { min: 1, max: FLEET_LIMITS.players, integer: true }),
  );
  const duration = read(
    'duration',
    number(fields.duration, 'Duration', { min: 1, max: FLEET_LIMITS.durationSec, integer: false }),
  );
  const ramp = read('ramp', number(fields.ramp, 'Ramp', { min: 0, max: FLEET_LIMITS.durationSec, integer: false }));
  const speed = read('speed', number(fields.speed, 'Speed', { min: 0.01, max: FLEET_LIMITS.speed, integer: false }));
  const rate = (key: 'skipRate' | 'pauseRate' | 'seekRate', what: string) =>
    read(key, number(fields[key], what, { min: 0, max: 1, integer: false }));
  const skipRate = rate('skipRate', 'Skip rate');
  const pauseRate = rate('pauseRate', 'Pause rate');
  const seekRate = rate('seekRate', 'Seek rate');
  const seed = read('seed', number(fields.seed, 'Seed', { min: 0, max: FLEET_LIMITS.seed, integer: true }));
  if (!errors.ramp && !errors.duration && ramp > duration) errors.ramp = 'Ramp must not be longer than the duration.';

  const baseUrl = fields.baseUrl.trim();
  if (baseUrl !== '' && !/^https?:\/\/[^\s]+$/i.test(baseUrl))
    errors.baseUrl = 'Base URL must start with http:// or https:// (empty: the console’s reference server).';
  const authorization = fields.authorization.trim();
  if (/[\r\n]/.test(fields.authorization.trim())) errors.authorization = 'Authorization must be one line.';
  if (authorization !== '' && baseUrl === '' && !errors.baseUrl)
    errors.authorization = 'Authorization is sent to a Base URL: give one, or leave this empty.';

  const thresholds = fields.thresholds
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  // The shape only (the engine's SHAPE); which metrics and units fit is the engine's to say on start.
  const badThreshold = thresholds.find((t) => !THRESHOLD_SHAPE.test(t));
  if (badThreshold !== undefined)
    errors.thresholds = `“${badThreshold}” is not a threshold: write it as k6 does, e.g. p99<250ms, errors<1%, violations==0.`;

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const input: FleetStartInput = {
    players,
    durationMs: Math.round(duration * 1000),
    rampMs: Math.round(ramp * 1000),
    speed,
    skipRate,
    pauseRate,
    seekRate,
    seed,
    thresholds,
  };
  if (baseUrl !== '') input.baseUrl = baseUrl;
  if (authorization !== '') input.authorization = authorization;
  return { ok: true, input };
}
