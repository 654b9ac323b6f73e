/**
 * A `check` stopped by Ctrl-C or a kill leaves the reports an earlier run wrote at its paths as
 * they were (audit: they were emptied when the run began, and stayed empty), and a report is
 * written whole or not at all.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { claimOutput, claimOutputs } from './output.js';
import { UsageError } from './usage.js';

const BIN = fileURLToPath(new URL('../../out/cli/bin.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cqc-check-interrupt-'));
let slow: Server;
/** Requests the slow server has heard. */
let asked = 0;
let baseUrl: string;

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build first`);
  // Answers each request after a second: the run is well under way when the signal comes.
  slow = createServer((_req, res) => {
    asked++;
    setTimeout(() => res.writeHead(503).end(), 1_000);
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/queues/q1/v2.3/`;
});
afterAll(async () => {
  slow.closeAllConnections();
  await new Promise((resolve) => slow.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('an interrupted check', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: the earlier reports at its paths are kept as they were',
    async (signal) => {
      const json = join(dir, `${signal}.json`);
      const junit = join(dir, `${signal}.xml`);
      writeFileSync(json, '{"earlier":true}');
      writeFileSync(junit, '<testsuites/>');
      const child = spawn(process.execPath, [BIN, 'check', baseUrl, '--json', json, '--junit', junit], {
        stdio: 'ignore',
      });
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      child.kill(signal);
      await new Promise((resolve) => child.once('exit', resolve));
      expect(readFileSync(json, 'utf8')).toBe('{"earlier":true}');
      expect(readFileSync(junit, 'utf8')).toBe('<testsuites/>');
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    },
    30_000,
  );
});

describe('a check whose process is killed outright', () => {
  it('stops its capped child too: no more requests, and the earlier report kept (audit)', async () => {
    const json = join(dir, 'SIGKILL.json');
    writeFileSync(json, '{"earlier":true}');
    const child = spawn(process.execPath, [BIN, 'check', baseUrl, '--json', json], { stdio: 'ignore' });
    // Until the check has asked (2.5 s was not enough for the CLI to start on a loaded runner, twice).
    await vi.waitFor(() => expect(asked).toBeGreaterThan(0), { timeout: 15_000, interval: 100 });
    child.kill('SIGKILL');
    // The slow server answers in a second: a child still running would have asked again by then.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const after = asked;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(asked).toBe(after);
    expect(readFileSync(json, 'utf8')).toBe('{"earlier":true}');
  }, 30_000);
});

describe('claimOutput and a claimed report', () => {
  it('claim a path without touching what is there, and leave no file where there was none', () => {
    const kept = join(dir, 'kept.json');
    writeFileSync(kept, 'before');
    claimOutput(kept);
    expect(readFileSync(kept, 'utf8')).toBe('before');
    const fresh = join(dir, 'fresh.json');
    claimOutput(fresh);
    expect(existsSync(fresh)).toBe(false);
    expect(() => claimOutput(join(dir, 'no-such-folder', 'r.json'))).toThrow(UsageError);
  });

  it('write the whole report in place of the old one, leaving nothing beside it when the write fails', () => {
    const path = join(dir, 'whole.json');
    writeFileSync(path, 'old');
    const said: string[] = [];
    claimOutputs({ json: path }).write(path, 'new', { stdout: () => undefined, stderr: (text) => said.push(text) });
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(said).toEqual([`wrote ${path}\n`]);
    // A folder where the report would go: the rename fails, the old folder stays, no temporary file is left.
    const taken = join(dir, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'inside'), 'x');
    expect(() =>
      claimOutputs({ json: taken }).write(taken, 'x', { stdout: () => undefined, stderr: () => undefined }),
    ).toThrow(/it is a folder/);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('claim no file twice, however the path reaches it, and no report over the file read', () => {
    const folder = join(dir, 'claims');
    mkdirSync(folder);
    const link = join(dir, 'claims-link');
    symlinkSync(folder, link);
    expect(() => claimOutputs({ json: join(folder, 'a.json'), junit: join(folder, 'b.xml') })).not.toThrow();
    expect(() => claimOutputs({ json: join(folder, 'a.json'), html: join(link, 'a.json') })).toThrow(
      /--html .*a\.json is the file --json names/,
    );
    expect(() => claimOutputs({ json: join(folder, 'in.json') }, [join(link, '.', 'in.json')])).toThrow(
      /is the file this command reads/,
    );
    expect(readdirSync(folder)).toEqual([]);
    // A link to the file read is the file read (review: only the folder's links were resolved).
    const bundle = join(folder, 'bundle.json');
    writeFileSync(bundle, '{}');
    const linked = join(dir, 'bundle-link.json');
    symlinkSync(bundle, linked);
    expect(() => claimOutputs({ json: bundle }, [linked])).toThrow(/is the file this command reads/);
    expect(() => claimOutputs({ json: linked, junit: bundle })).toThrow(/is the file --json names/);
  });
});
