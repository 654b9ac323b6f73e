/**
 * `check BASE_URL [--authorization V] [--junit F] [--json F] [--html F]` (docs/contract/console.md §1, §8): the
 * conformance suite against an integrator's cloud queue server. Exit 0 with no failed case
 * (warnings allowed), 1 with any, 2 when the command line is bad or the server cannot be reached.
 *
 * The suite itself is issue 31's; until it lands this command takes its final command line and
 * exit codes, checks that the server answers at all, and says plainly that no case ran.
 */
import { messageOf } from '../engine/api/errors.js';
import type { CliIo } from './io.js';
import { EXIT, parseCommandLine, UsageError, type ExitCode } from './usage.js';

export const CHECK_USAGE = 'usage: cloud-queue-console check BASE_URL [--authorization V] [--junit F] [--json F] [--html F]';

export const CHECK_HELP = `${CHECK_USAGE}

Plays the platform's player against your cloud queue server at BASE_URL (the queueBaseUrl a
loadCloudQueue would carry; the player appends context, itemWindow, version, timePlayed) and says,
rule by rule, where it breaks the contract.

  --authorization V   the Authorization header the player sends (e.g. "Bearer abc…")
  --junit F           also write a JUnit XML report to F
  --json F            also write the whole result to F as JSON
  --html F            also write a self-contained HTML report to F

Exit codes: 0 no case failed (warnings allowed), 1 a case failed, 2 a bad command line or a
server that cannot be reached at all.`;

export interface CheckArgs {
  baseUrl: URL;
  authorization?: string;
  junit?: string;
  json?: string;
  html?: string;
}

export function parseCheckArgs(argv: string[]): CheckArgs {
  const parsed = parseCommandLine(
    argv,
    { authorization: { type: 'string' }, junit: { type: 'string' }, json: { type: 'string' }, html: { type: 'string' } },
    CHECK_HELP,
  );
  const [raw, ...extra] = parsed.positionals;
  if (!raw) throw new UsageError('check needs the BASE_URL of a cloud queue server (http or https)');
  if (extra.length) throw new UsageError(`check takes one BASE_URL, got also: ${extra.join(' ')}`);
  let baseUrl: URL;
  try {
    baseUrl = new URL(raw);
  } catch {
    throw new UsageError(`BASE_URL must be an absolute http(s) URL, got ${raw}`);
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') throw new UsageError(`BASE_URL must be http or https, got ${baseUrl.protocol}`);
  const { authorization, junit, json, html } = parsed.values;
  return { baseUrl, ...(authorization ? { authorization } : {}), ...(junit ? { junit } : {}), ...(json ? { json } : {}), ...(html ? { html } : {}) };
}

export async function checkCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const args = parseCheckArgs(argv);
  const context = new URL('context', args.baseUrl.href.endsWith('/') ? args.baseUrl : `${args.baseUrl.href}/`);
  try {
    const answer = await fetch(context, { headers: args.authorization ? { authorization: args.authorization } : {}, signal: AbortSignal.timeout(10_000) });
    io.stderr(`${context.href} answered ${answer.status}\n`);
  } catch (error) {
    io.stderr(`cannot reach ${context.href}: ${messageOf((error as Error).cause ?? error)}\n`);
    return EXIT.usage;
  }
  io.stderr('the conformance suite is not in this version yet: no case ran\n');
  return EXIT.usage;
}
