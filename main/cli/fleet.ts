/**
 * `fleet [BASE_URL] --players N …` (docs/fleet.md): a fleet on a fresh in-memory console, through the
 * command table like any host. A line a second on stderr while it plays; at the end the summary
 * and each threshold on stdout, and the reports. Exit 0 when every threshold holds, 1 when one
 * does not (or the fleet could not be set up), 2 for a bad command line or an unreachable server.
 */
import { EngineError, messageOf } from '../engine/api/errors.js';
import type { FleetReport } from '../engine/api/fleet-types.js';
import { createEngine } from '../engine/index.js';
import { createLogger } from '../engine/log.js';
import { terminalSafe } from '../engine/conformance/reports/text.js';
import { endpointLine, headline, liveLine } from '../engine/fleet/reports/text.js';
import { parseFleetArgs } from './fleet-args.js';
import type { CliIo } from './io.js';
import { claimOutputs, quietLogger } from './output.js';
import { EXIT, UsageError, type ExitCode } from './usage.js';
import { packageVersion } from './version.js';

export { FLEET_USAGE } from './fleet-args.js';

export async function fleetCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const { input, reads, ...outputs } = parseFleetArgs(argv);
  const reports = claimOutputs(outputs, reads);
  const engine = await createEngine({
    dataDir: null,
    port: 0,
    log: quietLogger(createLogger(io.stderr)),
    version: packageVersion(),
  });
  let stopOnSignal: (() => void) | null = null;
  try {
    let id: string;
    try {
      ({ id } = await engine.commands.run('fleets.start', input));
    } catch (error) {
      // A fault file whose rules the engine refuses is a bad input file.
      if (error instanceof EngineError && error.code === 'invalid_input') throw new UsageError(error.message);
      throw error;
    }
    io.stderr(
      `fleet ${id}: ${input.players} player${input.players === 1 ? '' : 's'} on ${input.baseUrl === undefined ? 'the reference cloud queue server' : terminalSafe(input.baseUrl)} for ${input.durationMs / 1000} s of engine time\n`,
    );
    // The first Ctrl-C stops the fleet, whose requests in flight end within their 10 s; the second
    // says so, for one pressed again while they do (it quit at once, writing no report: audit); a
    // third quits, as a user pressing it three times means.
    let interrupts = 0;
    stopOnSignal = () => {
      interrupts++;
      if (interrupts === 1) void engine.commands.run('fleets.stop', { id }).catch(() => undefined);
      else if (interrupts === 2)
        io.stderr(
          'stopping: the requests in flight end within 10 s, then the reports are written (Ctrl-C again quits without them)\n',
        );
      else process.exit(130);
    };
    process.on('SIGINT', stopOnSignal);
    // Up to 10 s with no line a second otherwise: said, so that the command does not look hung (audit z1-12).
    if (input.baseUrl !== undefined)
      io.stderr(`asking player 1's server first (GET …/version, up to 10 s) before any player starts\n`);
    const report = await follow(id, engine.commands.run.bind(engine.commands) as Follow, io);
    for (const [format, path] of Object.entries(outputs)) {
      if (path)
        reports.write(path, (await engine.commands.run('fleets.export', { id, format: format as 'json' })).content, io);
    }
    if (report.error?.kind === 'unreachable') {
      io.stderr(`${terminalSafe(report.error.message)}\n`);
      return EXIT.usage;
    }
    io.stdout(summary(report));
    if (report.error) return EXIT.failed;
    return report.thresholds.every((t) => t.ok) ? EXIT.ok : EXIT.failed;
  } finally {
    if (stopOnSignal) process.removeListener('SIGINT', stopOnSignal);
    await engine.close();
  }
}

type Follow = (name: 'fleets.get', input: { id: string }) => Promise<FleetReport>;

/** A line a second until the fleet ends; the interval also keeps the process alive meanwhile. */
function follow(id: string, get: Follow, io: CliIo): Promise<FleetReport> {
  return new Promise((resolve, reject) => {
    let printed = 0;
    let draining = false;
    const timer = setInterval(() => {
      get('fleets.get', { id }).then(
        (report) => {
          if (report.series.length > printed) {
            printed = report.series.length;
            io.stderr(`${liveLine(report, report.series.at(-1))}\n`);
          }
          if (!draining && isDraining(report)) {
            draining = true;
            io.stderr('time is up: waiting for the requests still in flight (up to 10 s), then the reports\n');
          }
          if (report.status !== 'running') {
            clearInterval(timer);
            resolve(report);
          }
        },
        (error: unknown) => {
          clearInterval(timer);
          reject(new Error(`could not read fleet ${id}: ${messageOf(error)}`));
        },
      );
    }, 250);
  });
}

/** The fleet's time is up and it waits for the requests in flight: no line a second comes meanwhile. */
export function isDraining(report: FleetReport): boolean {
  return report.status === 'running' && report.elapsed.engineMs >= report.options.durationMs;
}

export function summary(report: FleetReport): string {
  const lines = [`${report.status === 'stopped' ? 'STOPPED' : 'DONE'} · ${headline(report)}`];
  if (report.timeNote) lines.push(report.timeNote);
  lines.push(...report.notes);
  if (report.error) lines.push(terminalSafe(report.error.message));
  for (const stats of report.endpoints) lines.push(terminalSafe(endpointLine(stats)));
  for (const v of report.violations)
    lines.push(
      // The sample as the request it was: the console's traffic log goes with the command's end
      // (the --json report keeps the sample whole).
      `violation ${terminalSafe(v.rule)} (${v.severity}) ×${v.count}: ${terminalSafe(v.message)} · sample ${v.sample.method} ${terminalSafe(v.sample.url)} → ${v.sample.status ?? 'no answer'}`,
    );
  for (const t of report.thresholds)
    lines.push(
      t.notJudged
        ? `FAIL  ${t.expression}  (${terminalSafe(t.notJudged)})`
        : `${t.ok ? 'pass' : 'FAIL'}  ${t.expression}  (measured ${t.actual}${t.unit})`,
    );
  return `${lines.join('\n')}\n`;
}
