// Runs `check` against one variant, as an integrator's CI would, and reads back its verdict from
// the JSON report (console.md §1: exit 0 pass, 1 a failed case, 2 unreachable).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './server';
import type { Variant } from './variant';

export interface Verdict {
  variant: string;
  expect: string;
  warns: string[];
  exit: number | null;
  failed: string[];
  warned: string[];
  skipped: string[];
  /** Each failed or warned case with its message, for the table printed on a mismatch. */
  messages: string[];
  ms: number;
  output: string;
  serverLog: string[];
}

interface ReportCase {
  id: string;
  outcome: string;
  message?: string;
}

/** Runs `check ARGS…` to its end: its exit code and everything it printed. */
export type CheckRunner = (args: string[]) => Promise<{ exit: number | null; output: string }>;

/** The built command line as a child process: what users run, started afresh each time. */
export function childProcess(cli: string): CheckRunner {
  return async (args) => {
    const child = spawn(process.execPath, [cli, 'check', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { exit, output };
  };
}

export async function runVariant(v: Variant, check: CheckRunner, extraArgs: string[] = []): Promise<Verdict> {
  const token = randomBytes(16).toString('hex');
  const behaviour = v.build(token);
  const server = await startServer(behaviour);
  const dir = await mkdtemp(join(tmpdir(), 'cqc-outsider-'));
  const report = join(dir, 'report.json');
  const started = Date.now();
  try {
    const baseUrl = v.baseUrl?.(server.baseUrl) ?? server.baseUrl;
    const { exit, output } = await check([
      baseUrl,
      '--authorization',
      behaviour.authorization,
      '--json',
      report,
      ...extraArgs,
    ]);
    let cases: ReportCase[] = [];
    try {
      cases = (JSON.parse(await readFile(report, 'utf8')) as { cases?: ReportCase[] }).cases ?? [];
    } catch {
      cases = [];
    }
    const ids = (outcome: string) => cases.filter((c) => c.outcome === outcome).map((c) => c.id);
    return {
      variant: v.name,
      expect: v.expect,
      warns: [...LOOPBACK_WARNING, ...(v.warns ?? [])],
      exit,
      failed: ids('fail'),
      warned: ids('warn'),
      skipped: ids('skip'),
      messages: cases
        .filter((c) => c.outcome === 'fail' || c.outcome === 'warn')
        .map((c) => `${c.outcome} ${c.id}: ${c.message ?? ''}`),
      ms: Date.now() - started,
      output,
      serverLog: server.state.log,
    };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every outsider listens on 127.0.0.1, which real players cannot reach (console.md §8). */
const LOOPBACK_WARNING = ['base-url.reachable'];

/** Whether a verdict is the one the contract gives the variant. */
export function agrees(verdict: Verdict): boolean {
  if (!verdict.warns.every((id) => verdict.warned.includes(id))) return false;
  if (verdict.expect === 'pass') return verdict.exit === 0 && verdict.failed.length === 0;
  return verdict.exit === 1 && verdict.failed.length === 1 && verdict.failed[0] === verdict.expect;
}

/** Runs `work` over `items`, `limit` at a time, keeping the input order in the results. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function table(verdicts: Verdict[], right: (v: Verdict) => boolean = agrees): string {
  const rows = verdicts.map((v) => {
    const got = v.exit === 0 ? 'pass' : `exit ${String(v.exit)} failed {${v.failed.join(', ')}}`;
    const mark = right(v) ? 'ok      ' : 'MISMATCH';
    const missing = v.warns.filter((id) => !v.warned.includes(id));
    const warn =
      (v.warned.length > 0 ? ` warned {${v.warned.join(', ')}}` : '') +
      (missing.length > 0 ? ` NOT WARNED {${missing.join(', ')}}` : '');
    return `${mark} ${v.variant.padEnd(30)} expect ${v.expect.padEnd(28)} got ${got}${warn} (${v.ms} ms)`;
  });
  return rows.join('\n');
}
