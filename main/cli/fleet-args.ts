/**
 * The command line of `fleet [BASE_URL] --players N …` (docs/fleet.md), parsed strictly into the
 * input of `fleets.start`: durations with their unit (`30s`, `10m`, `500ms`; a bare number is
 * seconds), rates from 0 to 1, thresholds parsed as the engine will judge them, and `--fault` a
 * preset's id or a JSON file of rules. Anything off is a UsageError: exit 2 before anything runs.
 */
import { baseUrlQueryProblem, unparsedUrlWhy } from '../engine/api/base-url.js';
import { terminalSafe } from '../engine/conformance/reports/text.js';
import { existsSync } from 'node:fs';
import type { FaultRuleInput } from '../engine/api/fault-types.js';
import type { FleetFault, FleetStartInput } from '../engine/api/fleet-types.js';
import { MAX_FLEET_DURATION_MS, MAX_FLEET_PLAYERS, MAX_FLEET_SPEED } from '../engine/api/commands/fleets.js';
import { groupedDigits } from '../engine/api/grouped-digits.js';
import { FAULT_PRESETS } from '../engine/faults/presets.js';
import { parseThreshold } from '../engine/api/thresholds.js';
import { playerBaseUrl } from '../engine/fleet/queues.js';
import { readJsonFile } from './json-file.js';
import { checkAuthorization, numberOf, parseCommandLine, UsageError } from './usage.js';

export const FLEET_USAGE =
  'usage: cloud-queue-console fleet [BASE_URL] --players N [--duration D] [--ramp D] [--speed S] [--authorization V] [--skip-rate R] [--pause-rate R] [--seek-rate R] [--seed N] [--workers W] [--fault PRESET|FILE]… [--threshold EXPR]… [--json F] [--junit F] [--html F]';

export const FLEET_HELP = `${FLEET_USAGE}

Plays N simulated players at once, each the console's own player (the platform's windows, version
polls, timePlayed reports and retries) with its own session on its own queue: without BASE_URL on
the console's reference cloud queue server, with it on BASE_URL ({player} in it is replaced by the
player's number). A line a second on stderr while it plays; at the end a summary, and reports.

  --players N         how many players (1 to ${groupedDigits(MAX_FLEET_PLAYERS)})
  --duration D        how long they play, in engine time (default 60s; 500ms, 30s, 10m, 2h)
  --ramp D            players join evenly over D (default 0: all at once)
  --speed S           the fleet's engine clock: 1 is real time, 10 plays 10 s a second (default 1)
  --authorization V   the Authorization header each player sends to BASE_URL
  --skip-rate R       chance per track that the listener skips it (0 to 1, default 0)
  --pause-rate R      chance per track that the listener pauses it a while (default 0)
  --seek-rate R       chance per track that the listener seeks in it (default 0)
  --seed N            the same seed gives the same listeners (default 1)
  --workers W         worker threads the players are split over (default one per core)
  --fault F           a fault preset's id (${FAULT_PRESETS.map((p) => p.id).join(', ')}) or a JSON file of
                      rules ({"rule": {...}, "startMs": 60000, "durationMs": 60000}, or a list), applied to
                      the fleet's requests; repeatable
  --threshold EXPR    k6-style: p99<250ms, p90<1s, max<2s, errors<1%, violations==0, retries<100,
                      rps>50, requests>1000; repeatable
  --json F / --junit F / --html F   write the report (JUnit: one test case per threshold)

Ctrl-C stops the fleet and reports it; a threshold it could not judge (stopped before it played)
does not hold.

Exit codes: 0 every threshold holds, 1 one does not, 2 a bad command line or a server that cannot
be reached at all.`;

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, min: 60_000, h: 3_600_000 };

/** `30s`, `10m`, `500ms`, `2h`; a bare number is seconds. */
export function durationOf(option: string, text: string): number {
  const match = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|min|m|h)?\s*$/.exec(text);
  const ms = match ? Math.round(Number(match[1]) * UNITS[match[2] ?? 's']!) : NaN;
  if (!(ms >= 0 && ms <= MAX_FLEET_DURATION_MS))
    throw new UsageError(`--${option} must be a duration such as 30s, 10m or 500ms (at most 24h), got ${text}`);
  return ms;
}

/** A file of fault rules is a few rules: a megabyte holds thousands. */
const MAX_FAULT_FILE_BYTES = 1024 * 1024;

/** What puts a `--fault` rule on for a while: beside the rule, never in it. */
const SCHEDULE_FIELDS = ['startMs', 'durationMs'] as const;
const schedule = (names: readonly string[]): string => names.map((name) => `"${name}": …`).join(', ');

/** A fault preset's rule, or the rules of a JSON file. */
export function faultsOf(spec: string): FleetFault[] {
  const preset = FAULT_PRESETS.find((p) => p.id === spec);
  if (preset) return [{ rule: { ...preset.rule } }];
  // Not a preset's name and no file by that name: say both, not only that the file is missing.
  if (!existsSync(spec))
    throw new UsageError(
      `--fault ${spec} is neither a preset (${FAULT_PRESETS.map((p) => p.id).join(', ')}) nor a file`,
    );
  const parsed = readJsonFile(spec, { what: '--fault', maxBytes: MAX_FAULT_FILE_BYTES });
  const list = Array.isArray(parsed) ? parsed : [parsed];
  // A fleet given a file of no rule ran as one without --fault, and said nothing (outsider).
  if (list.length === 0)
    throw new UsageError(`--fault ${spec} holds no rule (an empty list): give it one, or leave --fault out`);
  return list.map((entry, i) => {
    if (entry === null || typeof entry !== 'object')
      throw new UsageError(`--fault ${spec}: entry ${i + 1} is not an object`);
    // A bare rule is on for the whole run; `{ rule, startMs, durationMs }` for a while.
    if ('rule' in entry) {
      // Inside the rule the schedule names nothing (the engine refuses it as an unknown field): say where it goes.
      const rule: unknown = entry.rule;
      const inside = rule !== null && typeof rule === 'object' ? SCHEDULE_FIELDS.filter((name) => name in rule) : [];
      if (inside.length)
        throw new UsageError(
          `--fault ${spec}: entry ${i + 1} has ${inside.join(' and ')} inside its rule; a rule for a while is {"rule": {…}, ${schedule(inside)}}`,
        );
      return entry as FleetFault;
    }
    // A schedule beside a bare rule's own fields was dropped, and the rule acted for the whole
    // run (audit): it belongs beside the rule, not in it.
    const misplaced = SCHEDULE_FIELDS.filter((name) => name in entry);
    if (misplaced.length)
      throw new UsageError(
        `--fault ${spec}: entry ${i + 1} has ${misplaced.join(' and ')} beside the rule's own fields; a rule for a while is {"rule": {…}, ${schedule(misplaced)}}`,
      );
    return { rule: entry as FaultRuleInput };
  });
}

export function parseFleetArgs(argv: string[]): {
  input: FleetStartInput;
  json?: string;
  junit?: string;
  html?: string;
  /** The `--fault` files read: no report may be written over one. */
  reads: string[];
} {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      players: { type: 'string' },
      duration: { type: 'string' },
      ramp: { type: 'string' },
      speed: { type: 'string' },
      authorization: { type: 'string' },
      'skip-rate': { type: 'string' },
      'pause-rate': { type: 'string' },
      'seek-rate': { type: 'string' },
      seed: { type: 'string' },
      workers: { type: 'string' },
      fault: { type: 'string', multiple: true },
      threshold: { type: 'string', multiple: true },
      json: { type: 'string' },
      junit: { type: 'string' },
      html: { type: 'string' },
    },
    FLEET_HELP,
  );
  const [baseUrl, ...extra] = positionals;
  if (extra.length) throw new UsageError(`fleet takes one BASE_URL at most, got also: ${extra.join(' ')}`);
  if (baseUrl !== undefined) {
    const first = playerBaseUrl(baseUrl, 1);
    const url = URL.canParse(first) ? new URL(first) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new UsageError(
        `BASE_URL must be an absolute http(s) URL, got ${terminalSafe(baseUrl)}${url ? '' : unparsedUrlWhy(first)}`,
      );
    if (url.username || url.password)
      throw new UsageError('BASE_URL must not carry a user name or password: give credentials with --authorization');
    const queryProblem = baseUrlQueryProblem(url);
    if (queryProblem) throw new UsageError(queryProblem);
  }
  if (values.players === undefined) throw new UsageError('fleet needs --players N');
  checkAuthorization(values.authorization);
  if (values.authorization !== undefined && baseUrl === undefined)
    throw new UsageError('--authorization goes with a BASE_URL: the reference server gives each queue its own');
  const thresholds = values.threshold ?? [];
  for (const expression of thresholds) {
    const parsed = parseThreshold(expression);
    if (!parsed.ok) throw new UsageError(parsed.message);
  }
  const durationMs = durationOf('duration', values.duration ?? '60s');
  if (durationMs < 1_000) throw new UsageError(`--duration must be at least 1s, got ${values.duration}`);
  const rate = (option: 'skip-rate' | 'pause-rate' | 'seek-rate') =>
    values[option] === undefined ? undefined : numberOf(option, values[option], 0, 1);
  const input: FleetStartInput = {
    players: numberOf('players', values.players, 1, MAX_FLEET_PLAYERS, true),
    durationMs,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(values.authorization !== undefined ? { authorization: values.authorization } : {}),
    ...(values.ramp !== undefined ? { rampMs: durationOf('ramp', values.ramp) } : {}),
    ...(values.speed !== undefined ? { speed: speedOf(values.speed) } : {}),
    ...(rate('skip-rate') !== undefined ? { skipRate: rate('skip-rate') } : {}),
    ...(rate('pause-rate') !== undefined ? { pauseRate: rate('pause-rate') } : {}),
    ...(rate('seek-rate') !== undefined ? { seekRate: rate('seek-rate') } : {}),
    ...(values.seed !== undefined ? { seed: numberOf('seed', values.seed, 0, 4_294_967_295, true) } : {}),
    ...(values.workers !== undefined ? { workers: numberOf('workers', values.workers, 1, 64, true) } : {}),
    ...(values.fault ? { faults: values.fault.flatMap(faultsOf) } : {}),
    ...(thresholds.length ? { thresholds } : {}),
  };
  // Players due after the end would never join, and the report would say fewer than asked.
  if ((input.rampMs ?? 0) > durationMs)
    throw new UsageError(`--ramp must not be longer than --duration (${values.ramp} > ${values.duration ?? '60s'})`);
  return {
    input,
    ...(values.json ? { json: values.json } : {}),
    ...(values.junit ? { junit: values.junit } : {}),
    ...(values.html ? { html: values.html } : {}),
    reads: (values.fault ?? []).filter((spec) => !FAULT_PRESETS.some((preset) => preset.id === spec)),
  };
}

function speedOf(text: string): number {
  const speed = numberOf('speed', text, 0, MAX_FLEET_SPEED);
  if (speed === 0) throw new UsageError('--speed must be above 0: at 0 the fleet would never play');
  return speed;
}
