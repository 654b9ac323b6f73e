/**
 * The command line of the package (`cloud-queue-console`, alias `cqc`; docs/contract/console.md §1): one table of
 * commands, each a function of its arguments that resolves with its exit code. Usage errors and
 * `--help` are values (`usage.ts`); this is the one place that turns them into output.
 */
import { messageOf } from '../engine/api/errors.js';
import { nativeModuleProblem } from './native-module.js';
import { FLEET_USAGE } from './fleet-args.js';
import type { CliIo } from './io.js';
import { packageVersion } from './version.js';
import { USAGE as SERVE_USAGE } from './serve-args.js';
import type { ServeHooks } from './serve.js';
import { CHECK_USAGE, RUN_USAGE } from './usages.js';
import { printable } from './steps.js';
import { EXIT, HelpRequested, UsageError, type ExitCode } from './usage.js';

/** What a host may change of how a command behaves (`npm start` announces `serve` to a person). */
export interface CliHooks {
  serve?: ServeHooks;
}

const COMMANDS: Record<
  string,
  { summary: string; usage: string; run: (argv: string[], io: CliIo, hooks: CliHooks) => Promise<ExitCode> }
> = {
  serve: {
    summary: 'run the whole console headless, its UI served to any browser',
    usage: SERVE_USAGE.split('\n')[0]!,
    // Each command's code is loaded when it runs: `serve` starts without run's, check's or fleet's.
    run: async (argv, io, hooks) => (await import('./serve.js')).serveCommand(argv, io, hooks.serve),
  },
  run: {
    summary: 'replay a repro bundle or a scenario on a fresh console; exit 0 pass, 1 fail',
    usage: RUN_USAGE,
    run: async (argv, io) => (await import('./run.js')).runCommand(argv, io),
  },
  check: {
    summary: 'check a cloud queue server against the contract, rule by rule',
    usage: CHECK_USAGE,
    run: async (argv, io) => (await import('./check.js')).checkCommand(argv, io),
  },
  fleet: {
    summary: 'play N simulated players at once against a cloud queue server, with thresholds',
    usage: FLEET_USAGE,
    run: async (argv, io) => (await import('./fleet.js')).fleetCommand(argv, io),
  },
};

export const PROGRAM_HELP = `usage: cloud-queue-console <command> [options]   (alias: cqc)

Cloud Queue Console: the cloud playback platform's login service, control API, a reference cloud
queue server and simulated players, on your machine.

Commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(7)} ${summary}`)
  .join('\n')}

${Object.values(COMMANDS)
  .map(({ usage }) => `  ${usage.replace(/^usage: /, '')}`)
  .join('\n')}

Run \`cloud-queue-console <command> --help\` for a command's options.
Exit codes: 0 done or passed, 1 failed or could not start, 2 a bad command line or input file.`;

export async function main(argv: string[], io: CliIo, hooks: CliHooks = {}): Promise<ExitCode> {
  // `help run` is `run --help`, as git and npm read it (it printed the program's help, outsider).
  // `help bogus` is the unknown command it names (exit 2), not the program's help with exit 0.
  if (argv[0] === 'help' && argv[1] !== undefined)
    return main(Object.hasOwn(COMMANDS, argv[1]) ? [argv[1], '--help'] : [argv[1]], io, hooks);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    // Asked for, it is the answer (stdout, 0); with no command at all, it says what was missing.
    if (name === undefined) {
      io.stderr(`no command given\n${PROGRAM_HELP}\n`);
      return EXIT.usage;
    }
    io.stdout(`${PROGRAM_HELP}\n`);
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr(
      `unknown command ${JSON.stringify(name)}: the commands are ${Object.keys(COMMANDS).join(', ')}\n${PROGRAM_HELP}\n`,
    );
    return EXIT.usage;
  }
  try {
    return await command.run(rest, io, hooks);
  } catch (error) {
    if (error instanceof HelpRequested) {
      io.stdout(`${error.message}\n`);
      return EXIT.ok;
    }
    if (error instanceof UsageError) {
      io.stderr(`${printable(error.message)}\n${error.usage ?? command.usage}\n`);
      return EXIT.usage;
    }
    io.stderr(`cloud queue console ${name}: ${printable(nativeModuleProblem(error) ?? messageOf(error))}\n`);
    return EXIT.failed;
  }
}
