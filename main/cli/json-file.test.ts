/**
 * A file given on the command line that is not a regular file: a pipe (`<(…)`, `curl … |`), a FIFO,
 * a device. It has no size to check first: `/dev/zero` read to its end grew to 12 GB and a FIFO
 * no one wrote to hung `run` forever, its --timeout unheard (audit). Each is now read up to the
 * cap and within a time, or refused (exit 2).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../engine/testing/temp-dirs.js';
import { runCli } from '../testing/cli.js';
import { readJsonFile } from './json-file.js';

const tempDir = tempDirs('cqc-json-file-');

function fifo(): string {
  const path = join(tempDir(), 'in.json');
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
}

/** A writer in another process: `script` is sh, with $1 the FIFO. */
function writer(path: string, script: string) {
  const child = spawn('sh', ['-c', script, 'sh', path], { stdio: 'ignore' });
  return () => child.kill('SIGKILL');
}

describe('a file that is not a regular file', () => {
  it('a device that never ends is read to the cap and refused past it', () => {
    const started = performance.now();
    expect(() => readJsonFile('/dev/zero', { maxBytes: 1 << 20 })).toThrow(
      /\/dev\/zero is more than 1,048,576 bytes; the command takes files of up to 1,048,576 bytes/,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a pipe whose writer sends JSON, after a while, is read whole', () => {
    const path = fifo();
    const json = join(tempDir(), 'body.json');
    writeFileSync(json, JSON.stringify({ name: 'piped', steps: [1, 2, 3] }));
    const stop = writer(path, `sleep 0.3; cat '${json}' > "$1"`);
    try {
      // The writer opens the FIFO only once the reader has: read until it does.
      expect(readJsonFile(path, { streamReadMs: 10_000 })).toEqual({ name: 'piped', steps: [1, 2, 3] });
    } finally {
      stop();
    }
  });

  it('a writer that stops without ending is given up after the time, saying what came', () => {
    const path = fifo();
    const stop = writer(path, `exec 3>"$1"; printf '{"name":' >&3; sleep 30`);
    try {
      const started = performance.now();
      expect(() => readJsonFile(path, { streamReadMs: 1_000 })).toThrow(
        /gave 8 bytes in 1 s without ending \(the last of them [01]\.\d s before\)/,
      );
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      stop();
    }
  });

  it('a FIFO no one writes to is given up after the time, not waited on for ever', () => {
    const started = performance.now();
    expect(() => readJsonFile(fifo(), { streamReadMs: 500 })).toThrow(
      /nothing came within 0\.5 s \(a pipe no one writes to\?\)/,
    );
    expect(performance.now() - started).toBeLessThan(2_500);
  });

  it('a writer that keeps writing slowly is said so: not a writer gone quiet (outsider)', () => {
    const path = fifo();
    const stop = writer(path, `exec 3>"$1"; printf '{"pad":"' >&3; while true; do printf 'x' >&3; sleep 0.1; done`);
    try {
      expect(() => readJsonFile(path, { streamReadMs: 1_000 })).toThrow(
        /gave \d+ bytes in 1 s without ending \(the last of them 0\.[01] s before\)/,
      );
    } finally {
      stop();
    }
  });

  it('check --replay gives a FIFO no one writes to no longer than its --timeout (outsider: 30 s)', async () => {
    const started = performance.now();
    const { code, stderr } = await runCli('check', '--replay', fifo(), '--timeout', '1');
    expect(code).toBe(2);
    expect(stderr).toMatch(/nothing came within 1 s \(a pipe no one writes to\?\)/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('run gives a FIFO no one writes to no longer than its --timeout', async () => {
    const started = performance.now();
    const { code, stderr } = await runCli('run', fifo(), '--timeout', '1');
    expect(code).toBe(2);
    expect(stderr).toMatch(/nothing came within 1 s \(a pipe no one writes to\?\)/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a shell’s empty pipe (`<(true)`, `true | … /dev/stdin`) is empty at once, not waited on as a FIFO', () => {
    const bin = fileURLToPath(new URL('../../out/cli/bin.js', import.meta.url));
    if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first`);
    const started = performance.now();
    const run = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" run <(true)`], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/\/dev\/fd\/\d+ is not JSON/);
    const piped = spawnSync('bash', ['-c', `true | "${process.execPath}" "${bin}" run /dev/stdin`], {
      encoding: 'utf8',
    });
    expect(piped.status).toBe(2);
    expect(piped.stderr).toMatch(/\/dev\/stdin is not JSON/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('fleet --fault /dev/zero is exit 2 at its 1 MiB cap, not gigabytes later', async () => {
    const started = performance.now();
    const { code, stderr } = await runCli('fleet', '--players', '1', '--fault', '/dev/zero');
    expect(code).toBe(2);
    expect(stderr).toMatch(/\/dev\/zero is more than 1,048,576 bytes/);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('run on a directory says so', async () => {
    const { code, stderr } = await runCli('run', tempDir());
    expect(code).toBe(2);
    expect(stderr).toMatch(/is a directory, not a file/);
  });

  it('a binary file is called one, its bytes not echoed in the error (audit-ui W14)', () => {
    const path = join(tempDir(), 'picked.json');
    // A PNG's first bytes, and bytes that are not UTF-8.
    writeFileSync(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xfe]));
    let message = '';
    try {
      readJsonFile(path);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/picked\.json is not JSON: it looks like a binary file/);
    expect(message).not.toMatch(/[\p{Cc}\ufffd]/u);
  });

  it('a binary file whose bytes read as deep brackets is called binary, not too deep', () => {
    const path = join(tempDir(), 'archive.json');
    // A zip's signature, then bytes that read as '[' 300 times over, among control bytes.
    const bytes = [0x50, 0x4b, 0x03, 0x04, ...Array.from({ length: 300 }, (_, i) => (i % 3 === 2 ? 0x01 : 0x5b))];
    writeFileSync(path, Buffer.from(bytes));
    expect(() => readJsonFile(path)).toThrow(/archive\.json is not JSON: it looks like a binary file/);
  });

  it('a large binary file is called one from its first bytes, not read whole first (audit)', () => {
    // 200 MB of NULs (sparse: it takes no disk), then the rest of a valid bundle's text.
    const path = join(tempDir(), 'sparse.json');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 200_000_000);
    closeSync(fd);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    expect(() => readJsonFile(path)).toThrow(/sparse\.json is not JSON: it looks like a binary file/);
    expect(performance.now() - started).toBeLessThan(500);
    expect(process.memoryUsage().rss - before).toBeLessThan(50_000_000);
  });

  it('a text with a control character or two (a terminal colour pasted in) is told by line and column, not called binary (outsider)', () => {
    const path = join(tempDir(), 'pasted.json');
    writeFileSync(path, '{\n  "name": "a\u001b[31mb",\n  "steps": []\n}');
    expect(() => readJsonFile(path)).toThrow(
      /pasted\.json is not JSON: line 2, column \d+: a control character inside a string/,
    );
  });

  it('a JSON text with DEL and C1 controls raw in its strings is still JSON', () => {
    const path = join(tempDir(), 'controls.json');
    // Raw, not escaped: a JSON string may hold any character from U+0020 on.
    writeFileSync(path, '{"name":"a\u007fb\u0085c"}');
    expect(readJsonFile(path)).toEqual({ name: 'a\u007fb\u0085c' });
  });

  it('a text file too deep is still told so', () => {
    const path = join(tempDir(), 'deep.json');
    writeFileSync(path, '['.repeat(300) + ']'.repeat(300));
    expect(() => readJsonFile(path)).toThrow(/deep\.json nests arrays and objects more than 100 deep/);
  });
});
