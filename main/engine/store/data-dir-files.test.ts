/**
 * The data dir is the user's alone (docs/contract/console.md §9): 0700, every file in it 0600,
 * whatever the umask; a folder that cannot be one is refused at once with what to do. The
 * attack: the dir was 0755 and its files 0644, readable by every local user.
 */
import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueSummary } from '../api/queue-types.js';
import { admin, startTestEngine } from '../testing/http.js';
import { LOOPBACK_REDIRECT, codeFor, createTestIntegration, tokenRequest } from '../testing/oauth.js';
import { tempDirs } from '../testing/temp-dirs.js';
import { DATABASE_FILE } from './database.js';
import { DataDirUnusableError } from './data-dir-files.js';
import { LOCK_FILE } from './data-dir-lock.js';
import { openStore } from './store.js';

const tempDir = tempDirs('cqc-modes-');
const posix = process.platform !== 'win32';

/** Every file and folder under `dir` (itself included) with its permission bits, as `name 0600`. */
function modesUnder(dir: string, at = ''): string[] {
  const here = [`${at || '.'} 0${(statSync(join(dir, at)).mode & 0o777).toString(8)}`];
  for (const entry of readdirSync(join(dir, at), { withFileTypes: true })) {
    const path = join(at, entry.name);
    if (entry.isDirectory()) here.push(...modesUnder(dir, path));
    else here.push(`${path} 0${(statSync(join(dir, path)).mode & 0o777).toString(8)}`);
  }
  return here;
}

const privately = (modes: string[]) =>
  modes.map((line) => line.replace(/ 0\d+$/, line.startsWith('. ') ? ' 0700' : ' 0600'));

describe.skipIf(!posix)('the data dir and its files (docs/contract/console.md §9)', () => {
  let umask: number;
  // The loosest umask there is: what the console writes must not depend on the user's.
  beforeEach(() => {
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('are 0700 and 0600 after an OAuth flow, a token refresh, queue edits and player calls, running and stopped', async () => {
    const dataDir = join(tempDir(), 'data');
    const engine = await startTestEngine({ dataDir, clockSpeed: 0 });
    try {
      const client = await createTestIntegration(engine);
      const tokens = await tokenRequest(engine, client, {
        grant_type: 'authorization_code',
        code: await codeFor(engine, client),
        redirect_uri: LOOPBACK_REDIRECT,
      });
      expect(tokens.status).toBe(200);
      expect(
        (
          await tokenRequest(engine, client, {
            grant_type: 'refresh_token',
            refresh_token: String(tokens.body.refresh_token),
          })
        ).status,
      ).toBe(200);
      const queue = (
        await admin(engine, 'POST', '/queues', {
          name: 'Modes',
          items: [{ track: { name: 'One' } }, { track: { name: 'Two' } }],
        })
      ).body as QueueSummary;
      await admin(engine, 'PATCH', `/queues/${queue.id}`, { name: 'Modes, edited' });
      await admin(engine, 'POST', `/queues/${queue.id}/items`, { items: [{ track: { name: 'Three' } }] });
      const answer = await fetch(`${queue.queueBaseUrl}itemWindow?reason=load`, {
        headers: { authorization: queue.httpAuthorization, 'x-player-id': 'p' },
      });
      expect(answer.status).toBe(200);
      // Written through: the traffic log and the WAL are on disk while the console runs.
      await admin(engine, 'GET', '/traffic?limit=5');
      const running = modesUnder(dataDir);
      expect(running.some((line) => line.startsWith(`${DATABASE_FILE}-wal `))).toBe(true);
      expect(running).toEqual(privately(running));
    } finally {
      await engine.close();
    }
    const stopped = modesUnder(dataDir);
    expect(stopped.length).toBeGreaterThanOrEqual(4);
    expect(stopped).toEqual(privately(stopped));
  });

  it('are made so in a data dir from before the rule (0755, files 0644), and a log put aside stays 0600', async () => {
    const dataDir = join(tempDir(), 'data');
    await (await startTestEngine({ dataDir, clockSpeed: 0 })).close();
    chmodSync(dataDir, 0o755);
    for (const name of readdirSync(dataDir)) chmodSync(join(dataDir, name), 0o644);
    // A damaged traffic log, put aside at the next start.
    const log = join(dataDir, 'traffic.sqlite');
    const fd = openSync(log, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 0);
    closeSync(fd);
    const engine = await startTestEngine({ dataDir, clockSpeed: 0 });
    await engine.close();
    const modes = modesUnder(dataDir);
    expect(modes.some((line) => line.startsWith('traffic.sqlite.damaged-'))).toBe(true);
    expect(modes).toEqual(privately(modes));
  });

  it('leaves a folder of the user’s own as it is, and makes only the console’s files private in it', () => {
    const dataDir = tempDir();
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'notes.txt'), 'mine');
    chmodSync(join(dataDir, 'notes.txt'), 0o644);
    openStore({ dataDir }).close();
    expect(statSync(dataDir).mode & 0o777).toBe(0o755);
    expect(statSync(join(dataDir, 'notes.txt')).mode & 0o777).toBe(0o644);
    expect(statSync(join(dataDir, DATABASE_FILE)).mode & 0o777).toBe(0o600);
  });

  it('(audit) makes an empty folder given as the data dir 0700 from its first run', () => {
    for (const mode of [0o755, 0o777]) {
      const dataDir = tempDir();
      chmodSync(dataDir, mode);
      const store = openStore({ dataDir });
      try {
        expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      } finally {
        store.close();
      }
    }
  });
});

describe('a data dir that cannot be one is refused at once, saying what to do', () => {
  /** The traffic log's part: its file's name, for the data dir's check (the log itself is never reached). */
  const trafficLog = { files: ['traffic.sqlite'], attach() {}, takeTrafficRows() {}, detach() {} };
  function refusalOf(dataDir: string): DataDirUnusableError {
    try {
      openStore({ dataDir }, Date.now(), trafficLog).close();
    } catch (error) {
      if (error instanceof DataDirUnusableError) return error;
      throw error;
    }
    throw new Error('the console opened');
  }

  it('a file where the folder should be', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'not a folder');
    const refusal = refusalOf(file);
    expect(refusal.code).toBe('data_dir_unusable');
    expect(refusal.message).toBe(
      `cannot use ${file} as the data dir: it is a file, not a folder; start with --data-dir naming a folder this user can write, or with --ephemeral`,
    );
  });

  it('a folder where the console keeps a file, named', () => {
    const names = [
      DATABASE_FILE,
      LOCK_FILE,
      'console.state',
      'console.sqlite-shm',
      'console.sqlite-wal',
      'traffic.sqlite',
    ];
    for (const name of names) {
      const dataDir = tempDir();
      mkdirSync(join(dataDir, name));
      expect(refusalOf(dataDir).message).toBe(
        `cannot use ${dataDir} as the data dir: ${join(dataDir, name)} is a folder where the console keeps a file of its own: move it away; start with --data-dir naming a folder this user can write, or with --ephemeral`,
      );
      // Refused before anything was made there (outsider: a database, a WAL and a log were).
      expect(readdirSync(dataDir)).toEqual([name]);
    }
  });

  it('a folder under a file', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'not a folder');
    expect(refusalOf(join(file, 'data')).message).toBe(
      `cannot use ${join(file, 'data')} as the data dir: ${file} is a file, not a folder; start with --data-dir naming a folder this user can write, or with --ephemeral`,
    );
  });

  // root may write anywhere: only another user sees the refusal.
  it.skipIf(!posix || process.getuid?.() === 0)('a folder this user may not write, to make or to use', () => {
    const parent = tempDir();
    chmodSync(parent, 0o555);
    try {
      expect(refusalOf(join(parent, 'data')).message).toMatch(
        /^cannot use .* as the data dir: this user may not write .* \(EACCES\); start with --data-dir/,
      );
    } finally {
      chmodSync(parent, 0o755);
    }
    const dataDir = join(parent, 'data');
    mkdirSync(dataDir);
    openStore({ dataDir }).close();
    chmodSync(dataDir, 0o555);
    try {
      expect(refusalOf(dataDir).message).toBe(
        `cannot use ${dataDir} as the data dir: this user may not write ${dataDir} (EACCES); start with --data-dir naming a folder this user can write, or with --ephemeral`,
      );
    } finally {
      chmodSync(dataDir, 0o755);
    }
  });
});
