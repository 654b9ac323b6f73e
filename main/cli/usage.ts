import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * How the command line ends (docs/contract/console.md §1): 0 done or passed, 1 failed (or could not start), 2 a bad
 * command line or input file. Errors are values here; only `index.ts` turns them into output and
 * an exit code.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A command line or an input file that cannot be used: exit 2, with what to fix. */
export class UsageError extends Error {
  /** The usage line to print with it, when not the command's own (`check --replay` has its own form). */
  readonly usage: string | undefined;

  constructor(message: string, { usage }: { usage?: string } = {}) {
    super(message);
    this.usage = usage;
  }
}

/** `--help` was asked for: not an error, the usage is the answer (stdout, exit 0). */
export class HelpRequested extends Error {}

/**
 * A command's arguments by node:util's parser (strict: an unknown option is refused), with
 * `--help`/`-h` and a refusal both turned into the values above.
 */
export function parseCommandLine<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  help: string,
  { positionals = true } = {},
) {
  const config = {
    args: withNegativeValues(argv, options),
    options: { ...options, help: { type: 'boolean', short: 'h' } } as O & { help: { type: 'boolean'; short: 'h' } },
    strict: true as const,
    allowPositionals: positionals,
  };
  let parsed: ReturnType<typeof parseArgs<typeof config>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Node's hint after an unknown option is about positionals that start with a dash, with its
    // quotes unbalanced ('-- "--junit"'): the options this command takes say more (outsider).
    const unknown = /^Unknown option '([^']*)'/.exec(message);
    throw new UsageError(
      unknown
        ? `unknown option ${unknown[1]}: this command takes ${Object.keys(options)
            .map((name) => `--${name}`)
            .join(', ')}`
        : message,
    );
  }
  // Asked for before anything else is checked: `-h --port nope` is a request for help.
  if ((parsed.values as { help?: boolean }).help) throw new HelpRequested(help);
  // An option given twice took its last value without a word: `run --json a --json b` wrote b
  // alone (outsider). One that takes several (`--threshold`) is given as often as it likes.
  const given = new Set<string>();
  for (const arg of config.args) {
    if (arg === '--') break;
    const name = /^--([^=]+)/.exec(arg)?.[1];
    if (name === undefined || !Object.hasOwn(options, name) || options[name]!.multiple) continue;
    if (given.has(name)) throw new UsageError(`--${name} is given twice: give it once`);
    given.add(name);
  }
  return parsed;
}

/**
 * `--players -1` as `--players=-1`: node's parser takes a value that starts with a dash for an
 * option of its own and answers "argument is ambiguous", which says nothing of the number; joined,
 * the command's own check says what the value must be.
 */
function withNegativeValues(argv: string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.startsWith('--') ? arg.slice(2) : null;
    const next = argv[i + 1];
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * A number an option gives, written in decimals (`0.5`, `20`): an empty value is no 0 (an unset
 * `$SPEED` stopped serve's clock, outsider), nor `0x10` 16.
 */
export function numberOf(option: string, text: string, min: number, max: number, integer = false): number {
  const value = /^\s*[0-9]+(\.[0-9]+)?\s*$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max) || (integer && !Number.isInteger(value)))
    throw new UsageError(
      `--${option} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${text.trim() === '' ? 'an empty value' : text}`,
    );
  return value;
}

/**
 * An `--authorization` value an HTTP header can carry, or a usage error that says what in it cannot
 * be (one message for every cause read as "no line breaks" where there were none, outsider).
 */
export function checkAuthorization(value: string | undefined): void {
  if (value === undefined || (/^[\t\x20-\x7E\x80-\xFF]+$/.test(value) && value.trim() !== '')) return;
  const bad = [...value].find((c) => !/[\t\x20-\x7E\x80-\xFF]/.test(c));
  const code = bad?.codePointAt(0) ?? 0;
  const why =
    value.trim() === ''
      ? 'it is empty'
      : bad === '\r' || bad === '\n'
        ? 'it has a line break'
        : code < 0x20 || code === 0x7f
          ? `it has a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')})`
          : `it has a character past Latin-1 (${bad ?? ''})`;
  throw new UsageError(`--authorization must be a value an HTTP header can carry: ${why}`);
}
