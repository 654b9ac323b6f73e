/**
 * `serve` as a process: the ready line, a clean stop on signals, data that survives restarts
 * and kill -9. Started as the built CLI's `serve` (main/serve.ts, which `npm run serve` runs from
 * source, hands its arguments to that same command), and once through `npm run serve` itself.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from './engine/store/database.js';
import { TRAFFIC_LOG_FILE } from './engine/traffic/log/index.js';
import { tempDirs } from './engine/testing/temp-dirs.js';
import { builtCli, PROJECT_ROOT, startServe, type ServeProcess } from './testing/serve-process.js';

// Registered before the afterEach below: after-hooks run in reverse (vitest's stack order), so
// the processes are stopped before their data dirs go.
const tempDir = tempDirs('cqc-serve-');
const running: ServeProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop('SIGKILL')));
});

async function serve(args: string[]): Promise<ServeProcess> {
  const process = await startServe(args);
  running.push(process);
  return process;
}

async function adminCall(p: ServeProcess, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${p.ready.urls.console}/admin/api${path}`, {
    method,
    headers: { authorization: `Bearer ${p.ready.adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

describe('serve', () => {
  it('prints one JSON ready line with the four loopback URLs and the admin token', async () => {
    const p = await serve(['--port', '0', '--ephemeral']);
    expect(p.ready.event).toBe('ready');
    expect(Object.keys(p.ready.urls)).toEqual(['console', 'login', 'control', 'cloudQueue']);
    for (const url of Object.values(p.ready.urls)) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set(Object.values(p.ready.urls)).size).toBe(4);
    expect(p.ready.adminToken.length).toBeGreaterThanOrEqual(32);
    expect((await adminCall(p, 'GET', '/state')).status).toBe(200);
  });

  it('run through npm, as docs/contract/console.md §1 writes it, puts the ready line first on stdout and stops with exit 0', async () => {
    // npm writes its own banner before a script's output: stdout must still hold only the ready line.
    const p = await startServe(['--port', '0', '--ephemeral'], { via: 'npm', timeoutMs: 120_000 });
    running.push(p);
    expect(p.ready.event).toBe('ready');
    expect((await adminCall(p, 'GET', '/state')).status).toBe(200);
    expect(await p.stop('SIGTERM')).toBe(0);
  }, 130_000);

  it.each(['SIGTERM', 'SIGINT'] as const)('closes its listeners and exits 0 on %s', async (signal) => {
    const p = await serve(['--port', '0', '--ephemeral']);
    expect(await p.stop(signal)).toBe(0);
    await expect(fetch(p.ready.urls.console)).rejects.toThrow();
  });

  it('refuses bad arguments with a usage message and exit code 2', async () => {
    await expect(startServe(['--port', 'nope'])).rejects.toThrow(/exited with 2[\s\S]*--port/);
    // Off loopback, anyone on the network could read the admin token from the console page.
    await expect(startServe(['--host', '0.0.0.0', '--port', '0', '--ephemeral'])).rejects.toThrow(
      /exited with 2[\s\S]*--host must be a loopback address/,
    );
  });

  it('answers --help with what each option does and the exit codes, on stdout, and exit code 0', () => {
    const help = spawnSync(process.execPath, [builtCli(), 'serve', '--help'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: cloud-queue-console serve \[--host H\]/);
    expect(help.stdout).toContain('--clock-speed S');
    expect(help.stdout).toContain('Exit codes: 0');
  });

  it('finds everything it had after a restart on the same data dir', async () => {
    const dataDir = tempDir();
    const first = await serve(['--port', '0', '--data-dir', dataDir, '--clock-speed', '0']);
    const advanced = (await (await adminCall(first, 'POST', '/clock', { advanceMs: 86_400_000 })).json()) as {
      now: number;
    };
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = await serve(['--port', '0', '--data-dir', dataDir]);
    expect(await (await adminCall(second, 'GET', '/clock')).json()).toEqual({ now: advanced.now, speed: 0 });
    const players = (await (await adminCall(second, 'GET', '/players')).json()) as unknown[];
    expect(players).toHaveLength(3);
  });

  it('refuses a second console on a data dir another one has open: exit 1, naming the folder and the other process', async () => {
    const dataDir = tempDir();
    const first = await serve(['--port', '0', '--data-dir', dataDir]);
    const before = readdirSync(dataDir).sort();
    await expect(serve(['--port', '0', '--data-dir', dataDir])).rejects.toThrow(
      new RegExp(
        `exited with 1[\\s\\S]*another Cloud Queue Console \\(pid ${first.child.pid}, started [^)]*: serve\\) has ${dataDir} open`,
      ),
    );
    // Nothing written: the refused console never opened the database.
    expect(readdirSync(dataDir).sort()).toEqual(before);
    expect((await adminCall(first, 'GET', '/state')).status).toBe(200);
  });

  it('loses nothing acknowledged when killed with -9 in the middle of writes', async () => {
    const dataDir = tempDir();
    const first = await serve(['--port', '0', '--data-dir', dataDir, '--clock-speed', '0']);
    const start = ((await (await adminCall(first, 'GET', '/clock')).json()) as { now: number }).now;
    let acknowledged = start;
    const writers = Array.from({ length: 4 }, async () => {
      for (;;) {
        try {
          const response = await adminCall(first, 'POST', '/clock', { advanceMs: 1_000 });
          const { now } = (await response.json()) as { now: number };
          acknowledged = Math.max(acknowledged, now);
        } catch {
          return; // the process is gone
        }
      }
    });
    while (acknowledged < start + 50_000) await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill('SIGKILL');
    await Promise.all(writers);

    // The database opens cleanly and is intact…
    const db = new Database(join(dataDir, DATABASE_FILE));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();

    // …and holds at least every write that was acknowledged.
    const second = await serve(['--port', '0', '--data-dir', dataDir]);
    const restored = (await (await adminCall(second, 'GET', '/clock')).json()) as { now: number; speed: number };
    expect(restored.speed).toBe(0);
    expect(restored.now).toBeGreaterThanOrEqual(acknowledged);
    expect((restored.now - start) % 1_000).toBe(0);
    // The traffic log, written without fsync (see traffic/log/file.ts), was checked on start and kept.
    expect(readdirSync(dataDir).filter((name) => name.includes('damaged'))).toEqual([]);
    const trafficLog = new Database(join(dataDir, TRAFFIC_LOG_FILE), { readonly: true });
    expect(trafficLog.pragma('integrity_check', { simple: true })).toBe('ok');
    trafficLog.close();
  });
});

/** `serve` (the built CLI's) run to its end: how it ends, what it said on stderr, how long it took. */
function serveToEnd(args: string[]): { status: number | null; stderr: string; ms: number } {
  const started = Date.now();
  const run = spawnSync(process.execPath, [builtCli(), 'serve', '--port', '0', ...args], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: run.status, stderr: run.stderr, ms: Date.now() - started };
}

/** The lines `serve` printed on stderr, less the renderer-build warning of a clone without a build. */
const linesOf = (stderr: string) =>
  stderr.split('\n').filter((line) => line !== '' && !line.includes('no renderer build found'));

// docs/contract/console.md §9. The attack: an unwritable --data-dir hung without a word, and a
// damaged console.sqlite started (a zero-length one as a new, empty console).
describe('serve on a data dir it cannot use', () => {
  it.each([
    [
      'a file where the folder should be',
      (file: string) => file,
      (file: string) => `${file} as the data dir: it is a file, not a folder`,
    ],
    [
      'a folder under a file',
      (file: string) => join(file, 'data'),
      (file: string) => `${join(file, 'data')} as the data dir: ${file} is a file, not a folder`,
    ],
  ])('%s: exit 1 at once, with one line saying what to do', (_name, dataDirOf, says) => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'not a folder');
    const { status, stderr, ms } = serveToEnd(['--data-dir', dataDirOf(file)]);
    expect(status).toBe(1);
    expect(linesOf(stderr)).toEqual([
      `cloud queue console serve: cannot use ${says(file)}; start with --data-dir naming a folder this user can write, or with --ephemeral`,
    ]);
    // Most of it is Node starting up.
    expect(ms).toBeLessThan(15_000);
  });

  it.each([
    [
      'random bytes',
      (file: string) => writeFileSync(file, Buffer.alloc(statSync(file).size, 0x5a)),
      /file is not a database/,
    ],
    ['a zero-length file', (file: string) => truncateSync(file, 0), /it is empty: 0 bytes/],
    ['a file cut short', (file: string) => truncateSync(file, 8_192), /quick_check|malformed/],
  ])(
    'a damaged console.sqlite (%s): exit 1, one line naming the file and the remedy, the file untouched',
    async (_name, damage, says) => {
      const dataDir = tempDir();
      const first = await serve(['--port', '0', '--data-dir', dataDir]);
      expect(await first.stop('SIGTERM')).toBe(0);
      const file = join(dataDir, DATABASE_FILE);
      damage(file);
      const damaged = statSync(file).size;
      const { status, stderr } = serveToEnd(['--data-dir', dataDir]);
      expect(status).toBe(1);
      const lines = linesOf(stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^cloud queue console serve: the console database ${file} is damaged \\(.*\\); nothing was changed\\. Move it aside .* or put back a backup, then start again`,
        ),
      );
      expect(lines[0]).toMatch(says);
      expect(statSync(file).size).toBe(damaged);
    },
  );
});
