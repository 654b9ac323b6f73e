/**
 * The fleet form's fields as typed (strings, kept as they are on an error) and their reading into
 * a `fleets.start` input, each field checked against the engine's own bounds, so a refusal is said
 * beside its field before anything is sent.
 */
import type { FaultPreset } from '@engine-api/commands/faults';
import type { FleetFault, FleetStartInput } from '@engine-api/fleet-types';
import { parseThreshold } from '@engine-api/thresholds';

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
  /** Worker threads; empty: the engine's default, one per core. */
  workers: string;
  baseUrl: string;
  authorization: string;
  /** One k6-style threshold a line. */
  thresholds: string;
}

export type FleetFieldErrors = Partial<Record<keyof FleetFields, string>>;

/** A fault preset the fleet switches on at `start` seconds of its listening, for `duration` (empty: to its end). */
export interface FleetFaultDraft {
  preset: string;
  start: string;
  duration: string;
}

/** Errors of the fault rows, by row and by field. */
export type FleetFaultErrors = Partial<Record<number, Partial<Record<keyof FleetFaultDraft, string>>>>;

export type ParsedFleetForm =
  { ok: true; input: FleetStartInput } | { ok: false; errors: FleetFieldErrors; faultErrors: FleetFaultErrors };

/** The engine's bounds (main/engine/api/commands/fleets.ts), restated for the form. */
export const FLEET_LIMITS = {
  players: 20_000,
  durationSec: 86_400,
  speed: 1_000,
  seed: 4_294_967_295,
  workers: 64,
} as const;

export const DEFAULT_FLEET_FIELDS: FleetFields = {
  players: '100',
  duration: '60',
  ramp: '10',
  speed: '1',
  skipRate: '0.1',
  pauseRate: '0.05',
  seekRate: '0.05',
  seed: '1',
  workers: '',
  baseUrl: '',
  authorization: '',
  thresholds: 'p99<250ms\nerrors<1%\nviolations==0',
};

type Reading = { ok: true; value: number } | { ok: false; message: string };

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

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

/** The outage the issue names: every cloud queue request answers 503 for a minute, ten seconds in. */
export const OUTAGE_FAULT: FleetFaultDraft = { preset: '503-storm', start: '10', duration: '60' };

/**
 * The fault rows read into the fleet's timed rules: each names a preset the engine offers, starts
 * within the fleet's duration and lasts at least a second. The rule is the preset's own; the
 * fleet aims it at its players' client (fleet/fleet.ts), so it fails whatever server they play.
 */
export function parseFleetFaults(
  drafts: readonly FleetFaultDraft[],
  presets: readonly FaultPreset[],
  durationSec: number,
): { faults: FleetFault[]; errors: FleetFaultErrors } {
  const errors: FleetFaultErrors = {};
  const faults: FleetFault[] = [];
  drafts.forEach((draft, row) => {
    const rowErrors: Partial<Record<keyof FleetFaultDraft, string>> = {};
    const preset = presets.find((p) => p.id === draft.preset);
    if (!preset) rowErrors.preset = 'Choose a fault.';
    const start = number(draft.start, 'Start', { min: 0, max: FLEET_LIMITS.durationSec, integer: false });
    if (!start.ok) rowErrors.start = start.message;
    else if (Number.isFinite(durationSec) && start.value >= durationSec)
      rowErrors.start = 'Start must be before the fleet ends.';
    const lasting =
      draft.duration.trim() === ''
        ? null
        : number(draft.duration, 'Duration', { min: 1, max: FLEET_LIMITS.durationSec, integer: false });
    if (lasting && !lasting.ok) rowErrors.duration = lasting.message;
    if (Object.keys(rowErrors).length > 0 || !preset || !start.ok || (lasting && !lasting.ok)) {
      errors[row] = rowErrors;
      return;
    }
    faults.push({
      rule: { ...preset.rule, label: `${preset.label} (fleet, from ${draft.start.trim()} s)` },
      startMs: Math.round(start.value * 1000),
      ...(lasting ? { durationMs: Math.round(lasting.value * 1000) } : {}),
    });
  });
  return { faults, errors };
}

export function parseFleetForm(
  fields: FleetFields,
  faultDrafts: readonly FleetFaultDraft[] = [],
  presets: readonly FaultPreset[] = [],
): ParsedFleetForm {
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
  const workers =
    fields.workers.trim() === ''
      ? null
      : read('workers', number(fields.workers, 'Workers', { min: 1, max: FLEET_LIMITS.workers, integer: true }));
  const timed = parseFleetFaults(faultDrafts, presets, duration);

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
  // Each line as the engine reads it, every refusal at once (ui-x3 U7: only the first was said,
  // by the server, under the Start button).
  const refused = thresholds.flatMap((line) => {
    const parsed = parseThreshold(line);
    return parsed.ok ? [] : [parsed.message];
  });
  if (refused.length > 0) errors.thresholds = refused.map((message) => `${capitalized(message)}.`).join(' ');

  if (Object.keys(errors).length > 0 || Object.keys(timed.errors).length > 0)
    return { ok: false, errors, faultErrors: timed.errors };
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
  if (workers !== null) input.workers = workers;
  if (timed.faults.length > 0) input.faults = timed.faults;
  if (baseUrl !== '') input.baseUrl = baseUrl;
  if (authorization !== '') input.authorization = authorization;
  return { ok: true, input };
}
