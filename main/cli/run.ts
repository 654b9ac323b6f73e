/**
 * `run FILE [--junit F] [--json F]` (docs/contract/console.md §1): a repro bundle or a scenario file, replayed on a
 * fresh in-memory console. Every step is printed as its outcome is known, with the engine time
 * since the run began (a failed expectation with its explanation: expected and actual side by
 * side, and the exchanges around the first difference); then a summary. Exit 0 when the run
 * passes, 1 when it fails, 2 when the file or the command line cannot be used (nothing runs then).
 */
import { BUNDLE_FORMAT } from '../engine/api/bundle-types.js';
import { EngineError } from '../engine/api/errors.js';
import type { CommandInput } from '../engine/api/commands.js';
import type { ScenarioReport, ScenarioStep, ScenarioStepResult } from '../engine/api/scenario-types.js';
import { createEngine, type Engine } from '../engine/index.js';
import { TRANSITIONS } from '../engine/player/transitions.js';
import { createLogger } from '../engine/log.js';
import type { CliIo } from './io.js';
import { claimOutputs, quietLogger } from './output.js';
import { scenarioJUnit } from './junit.js';
import { explanationLines } from './explanation.js';
import { readJsonFile, STREAM_READ_MS } from './json-file.js';
import {
  DEFAULT_RUN_TIMEOUT_SEC,
  MAX_RUN_TIMEOUT_SEC,
  parseAllowedHost,
  outboundPolicy,
  ownHosts,
  refuseOutsideHosts,
  refuseUnchecked,
  refuseUnknownNames,
} from './run-guard.js';
import { describeStep, engineSpan, plain, printable } from './steps.js';
import { packageVersion } from './version.js';
import { EXIT, numberOf, parseCommandLine, UsageError, type ExitCode } from './usage.js';

import { RUN_USAGE } from './usages.js';
import { reportJson } from '../engine/api/report-json.js';
import { notCheckedAdvice, verdictOf } from '../engine/api/scenario-verdict.js';

export { RUN_USAGE };

export const RUN_HELP = `${RUN_USAGE}

Replays FILE on a fresh console in memory (free loopback ports, nothing written to disk) and says
whether the players did what it expects. FILE is either
  - a repro bundle, as the console's "Export repro bundle" writes it: its queues, fault rules
    and clock are set up, then the scenario derived from its traffic runs; or
  - a scenario: {"name", "steps": [...]} as the Faults area saves it (steps of type fault,
    faultRemove, faultMove, faultTrigger, trigger, queueEdit, clearFaults, action, command
    (a control API path under /api/v1/), clock, expect).

Each step is printed as it ends, with the engine time since the run began, then a summary. A
failed expectation is followed by the expected and the actual transitions side by side from the
first difference, and the player's exchanges around it (method, path, reason, status, and the
fault rule that acted on each); the JSON report holds it as the step's "explanation", the JUnit
report in the failure's message.

  --junit F         also write a JUnit XML report to F: one test case per expectation (expect step)
  --json F          also write the whole run report to F as JSON
  --timeout S       stop the run after S seconds of wall time (1 to ${MAX_RUN_TIMEOUT_SEC}, default ${DEFAULT_RUN_TIMEOUT_SEC}): a failure
  --allow-host H    let the run call host H (or H:PORT) too; without it, a file whose steps
                    would call any host but this console's own is refused and nothing runs

Exit codes: 0 the run passed, 1 it failed, 2 the file or the command line cannot be used (and a
run that failed nothing but could check none of the file's expectations: NOT CHECKED).`;

export interface RunArgs {
  file: string;
  junit?: string;
  json?: string;
  /** Wall seconds for the whole run. */
  timeoutSec: number;
  /** Hosts (`host` or `host:port`) the steps may call besides the console's own. */
  allowHosts: string[];
}

export function parseRunArgs(argv: string[]): RunArgs {
  const parsed = parseCommandLine(
    argv,
    {
      junit: { type: 'string' },
      json: { type: 'string' },
      timeout: { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
    },
    RUN_HELP,
  );
  const [file, ...extra] = parsed.positionals;
  if (!file) throw new UsageError('run needs the FILE to replay: a repro bundle or a scenario (.json)');
  if (extra.length) throw new UsageError(`run takes one FILE, got also: ${extra.join(' ')}`);
  const timeout = parsed.values.timeout;
  // In decimals, as every number of the command line is read (`0x10` was 16 s, `1e3` 1,000 s).
  const timeoutSec =
    timeout === undefined ? DEFAULT_RUN_TIMEOUT_SEC : numberOf('timeout', timeout, 1, MAX_RUN_TIMEOUT_SEC);
  return {
    file,
    ...(parsed.values.junit ? { junit: parsed.values.junit } : {}),
    ...(parsed.values.json ? { json: parsed.values.json } : {}),
    timeoutSec,
    allowHosts: (parsed.values['allow-host'] ?? []).map(parseAllowedHost),
  };
}

/** What FILE holds, told apart by its shape. */
type RunInput =
  { kind: 'bundle'; value: Record<string, unknown> } | { kind: 'scenario'; value: Record<string, unknown> };

/** `streamReadMs`: how long a pipe or a device may take to give the file (the run's --timeout, at most 30 s). */
export function readRunInput(file: string, streamReadMs = STREAM_READ_MS): RunInput {
  const value = readJsonFile(file, { streamReadMs });
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`${file} holds no JSON object: a repro bundle or a scenario is one`);
  const record = value as Record<string, unknown>;
  if (record.format === BUNDLE_FORMAT) return { kind: 'bundle', value: record };
  if (record.format !== undefined)
    throw new UsageError(
      `${file} is a ${JSON.stringify(record.format)} file; run takes a repro bundle (format "${BUNDLE_FORMAT}") or a scenario`,
    );
  if (Array.isArray(record.steps)) return { kind: 'scenario', value: record };
  throw new UsageError(
    `${file} is neither a repro bundle (no "format": "${BUNDLE_FORMAT}") nor a scenario (no "steps" list)`,
  );
}

export async function runCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const args = parseRunArgs(argv);
  // A pipe is waited on no longer than the run's own --timeout (which starts once the file is
  // read and the console is up): a FIFO nobody writes to is not 30 s whatever --timeout says.
  const input = readRunInput(args.file, Math.min(STREAM_READ_MS, args.timeoutSec * 1000));
  // Only what goes wrong reaches stderr: the run's own lines are the output.
  const engineLog = quietLogger(createLogger(io.stderr));
  // What the file builds as it runs (a URL saved from an answer) meets the same rule as what it says.
  let own: ReadonlySet<string> = new Set();
  const engine = await createEngine({
    dataDir: null,
    port: 0,
    log: engineLog,
    version: packageVersion(),
    outbound: outboundPolicy(() => own, args.allowHosts),
    // A bundle's scenario stops the clock at once: stopped from the start, no engine time passes
    // before it, and two runs of one bundle print the same times (they differed by 80 ms).
    ...(input.kind === 'bundle' ? { clockSpeed: 0 } : {}),
  });
  own = ownHosts(engine.urls);
  try {
    const { scenarioId, name, steps, setUp } = await prepare(engine, input, args.file);
    refuseOutsideHosts(args.file, steps, engine.urls, args.allowHosts);
    refuseUnchecked(args.file, steps);
    refuseUnknownNames(
      args.file,
      steps,
      new Set(TRANSITIONS.map((row) => row.id)),
      new Set((await engine.commands.run('players.list', {})).map((player) => player.id)),
    );
    // Claimed once the file is known to run: a refused file leaves no empty report behind.
    const reports = claimOutputs({ json: args.json, junit: args.junit }, [args.file]);
    // Its notes come on lines of their own: each line made safe, the breaks kept.
    io.stdout(`run ${plain(args.file)}: ${printable(setUp)}\n`);
    // The run's own start, once its first step says it: the times printed are the reports' times.
    let startedAt = engine.clock.now();
    const wallStarted = performance.now();
    // Each step's latest outcome, for the reports of a run stopped at its deadline.
    const known = new Map<number, ScenarioStepResult>();
    const stop = engine.events.on('scenarios.step', ({ scenarioId: id, at, stepCount, step, settled, ...run }) => {
      if (id !== scenarioId) return;
      startedAt = run.startedAt;
      known.set(step.index, step);
      io.stdout(stepLine(step, at - startedAt, stepCount, steps[step.index], settled));
      // Why an expectation failed, right under it: what came instead, and the exchanges around it.
      if (step.explanation)
        io.stdout(
          explanationLines(step.explanation, startedAt)
            .map((line) => `    ${line}\n`)
            .join(''),
        );
    });
    let report: ScenarioReport | 'deadline';
    let deadline: NodeJS.Timeout | undefined;
    try {
      report = await Promise.race([
        engine.commands.run('scenarios.run', { id: scenarioId }),
        new Promise<'deadline'>(
          (resolve) => (deadline = setTimeout(() => resolve('deadline'), args.timeoutSec * 1000)),
        ),
      ]);
    } finally {
      clearTimeout(deadline);
      stop();
    }
    if (report === 'deadline') {
      const why = `the run passed its deadline of ${args.timeoutSec} s of wall time and was stopped (--timeout)`;
      io.stdout(`FAILED · ${why}\n`);
      // The reports say what was known when it stopped, never an empty file.
      const stopped = stoppedReport({ scenarioId, name }, steps, known, {
        startedAt,
        endedAt: engine.clock.now(),
        wallMs: Math.round(performance.now() - wallStarted),
        why,
      });
      if (args.json)
        reports.write(args.json, reportJson({ file: args.file, kind: input.kind, deadline: why, ...stopped }), io);
      if (args.junit) reports.write(args.junit, scenarioJUnit(stopped, steps, args.file), io);
      return EXIT.failed;
    }
    io.stdout(`${summaryLine(report, steps)}\n`);
    if (args.json) reports.write(args.json, reportJson({ file: args.file, kind: input.kind, ...report }), io);
    if (args.junit) reports.write(args.junit, scenarioJUnit(report, steps, args.file), io);
    // Nothing it expects could be checked: the file, as it stands, cannot tell a right console from a wrong one.
    if (report.notChecked !== undefined) return EXIT.usage;
    return report.passed ? EXIT.ok : EXIT.failed;
  } finally {
    await engine.close();
  }
}

/** Imports a bundle or saves a scenario; a file the engine refuses is a bad file (exit 2). */
async function prepare(
  engine: Engine,
  input: RunInput,
  file: string,
): Promise<{ scenarioId: string; name: string; steps: ScenarioStep[]; setUp: string }> {
  try {
    if (input.kind === 'bundle') {
      const imported = await engine.commands.run('bundles.import', input.value);
      // An import takes the bundle's clock speed, for people to see; a run replays on a stopped one.
      engine.clock.setSpeed(0);
      const saved = await engine.commands.run('scenarios.get', { id: imported.scenario.id });
      const said = [...imported.notes, ...imported.warnings].map((line) => `\n  note: ${line}`).join('');
      return {
        scenarioId: saved.id,
        name: saved.name,
        steps: saved.steps,
        setUp: `repro bundle "${saved.name}": ${count(imported.queues.length, 'queue')}, ${count(imported.faults.length, 'fault rule')}, ${count(saved.steps.length, 'step')}${said}`,
      };
    }
    // The file whole: the command refuses a field it does not know (a bundle's `faults` in a
    // scenario, a misspelt `description`), which picking the known ones out would have dropped.
    const saved = await engine.commands.run('scenarios.save', input.value as CommandInput<'scenarios.save'>);
    return {
      scenarioId: saved.id,
      name: saved.name,
      steps: saved.steps,
      setUp: `scenario "${saved.name}": ${count(saved.steps.length, 'step')}`,
    };
  } catch (error) {
    if (error instanceof EngineError && error.code === 'invalid_input')
      throw new UsageError(`${file} cannot be run: ${refusalOf(error)}`);
    throw error;
  }
}

/** A run stopped at its deadline: the steps that ended as they ended, the first that had not failed, the rest skipped. */
function stoppedReport(
  scenario: { scenarioId: string; name: string },
  steps: readonly ScenarioStep[],
  known: ReadonlyMap<number, ScenarioStepResult>,
  at: { startedAt: number; endedAt: number; wallMs: number; why: string },
): ScenarioReport {
  let stoppedOne = false;
  const results = steps.map((step, index): ScenarioStepResult => {
    const result = known.get(index);
    if (result && result.status !== 'passed') return result;
    if (result && !/waiting for engine time$/.test(result.message)) return result;
    if (!stoppedOne) {
      stoppedOne = true;
      return { index, type: step.type, status: 'failed', message: at.why };
    }
    return { index, type: step.type, status: 'skipped', message: 'not run: the run was stopped at its deadline' };
  });
  return {
    ...scenario,
    passed: false,
    startedAt: at.startedAt,
    endedAt: at.endedAt,
    wallMs: at.wallMs,
    steps: results,
    transitions: [],
  };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The engine's refusal in the file's terms: each refused place it lists (a few: the first is
 * usually the cause), without the command that refused it (the file's reader never called one).
 */
function refusalOf(error: EngineError): string {
  const places = Array.isArray(error.details) ? (error.details as { path?: unknown; message?: unknown }[]) : [];
  if (places.length === 0) return error.message.replace(/^[a-z]+(?:\.[a-z]+)+: /i, '');
  const listed = places.slice(0, 5).map((place) => `\n  ${String(place.path ?? '/')}: ${String(place.message ?? '')}`);
  const more = places.length > 5 ? `\n  … and ${places.length - 5} more` : '';
  return `${count(places.length, 'problem')}${listed.join('')}${more}`;
}

const MARK: Record<ScenarioStepResult['status'], string> = { passed: 'pass', failed: 'FAIL', skipped: 'skip' };

/** `[+00:10:31.000] FAIL  9/12 expect player-kitchen: … — what happened` */
export function stepLine(
  result: ScenarioStepResult,
  sinceStartMs: number,
  stepCount: number,
  step: ScenarioStep | undefined,
  settled: boolean,
): string {
  const what = plain(step ? describeStep(step) : result.type);
  const position = `${result.index + 1}/${stepCount}`;
  // A step still waiting is not a pass yet: its settled line says how it ended.
  const mark = result.waiting ? 'wait' : result.unchecked ? 'skip' : MARK[result.status];
  return `[+${engineSpan(sinceStartMs)}] ${mark}  ${position.padStart(String(stepCount).length * 2 + 1)} ${what}${settled ? ' (settled)' : ''} — ${plain(result.message)}\n`;
}

export function summaryLine(report: ScenarioReport, steps: readonly ScenarioStep[]): string {
  const tally = (status: ScenarioStepResult['status'], only?: ScenarioStep['type']) =>
    report.steps.filter((r) => r.status === status && (only === undefined || steps[r.index]?.type === only)).length;
  const expectations = steps.filter((s) => s.type === 'expect').length;
  // An expectation the run could not hold a player to is skipped: not met, and counted apart.
  const unchecked = report.steps.filter((r) => r.unchecked).length;
  const line = [
    verdictOf(report).toUpperCase(),
    `${tally('passed')} passed, ${tally('failed')} failed, ${tally('skipped')} skipped`,
    // None at all is said as what the run checked: "0 of 0 met" read as a pass of the player's
    // doings where a filtered export had checked only its calls' answers (outsider).
    expectations === 0
      ? `no expectation: only the calls' answers were checked, not what the players did`
      : `expectations: ${tally('passed', 'expect')} of ${expectations} met${unchecked ? `, ${unchecked} not checked` : ''}`,
    `${engineSpan(report.endedAt - report.startedAt)} engine time in ${(report.wallMs / 1000).toFixed(1)} s`,
  ].join(' · ');
  // A run that checked nothing says why under its summary, and what would check something.
  return report.notChecked === undefined
    ? line
    : `${line}\n  ${plain(report.notChecked)}.\n  ${notCheckedAdvice(report)}. Exit 2: the file cannot check this console as it stands.`;
}
