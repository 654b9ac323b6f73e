/**
 * `fleet` interrupted (Ctrl-C) before it played (docs/fleet.md): SIGINT stops the fleet and the
 * command reports it, as it does a fleet stopped later; a fleet stopped before it played says
 * so, judges no threshold (never a pass over zero requests) and, since a threshold not judged
 * does not hold, exits 1. Audit V6: the same Ctrl-C read as "the fleet's worker threads could
 * not start", with a failed JUnit case "the server can be reached". The signal is given as the
 * command's own SIGINT listener hears it, at once after the fleet started (its threads loading),
 * not by a delay, and without a real signal that the test runner would hear too.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'cqc-fleet-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cloud-queue-console fleet, interrupted', () => {
  it('reports a fleet stopped before it played: nothing judged, no setup failure, exit 1', async () => {
    const [json, junit] = [join(dir, 'early.json'), join(dir, 'early.xml')];
    const before = new Set(process.listeners('SIGINT'));
    const interrupt = () => {
      for (const listener of process.listeners('SIGINT')) if (!before.has(listener)) listener('SIGINT');
    };
    let stdout = '';
    let said = '';
    const code = await main(
      [
        'fleet',
        ...['--players', '3', '--duration', '60s', '--workers', '2', '--threshold', 'errors<1%'],
        ...['--json', json, '--junit', junit],
      ],
      {
        stdout: (text) => void (stdout += text),
        // Said once the fleet started: Ctrl-C comes right after, twice (the second only says so).
        stderr: (text) => {
          said += text;
          if (text.startsWith('fleet fleet-'))
            setImmediate(() => {
              interrupt();
              interrupt();
            });
        },
      },
    );
    expect(stdout).toMatch(/^STOPPED · /);
    // Pressed again while it stops: it says what it waits for, and still writes its reports (audit).
    expect(said).toMatch(/^stopping: the requests in flight end within 10 s, then the reports are written/m);
    expect(stdout).toMatch(/^FAIL {2}errors<1% {2}\(not judged: stopped before it played\)$/m);
    expect(stdout).not.toMatch(/could not start|pass {2}errors/);
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { error: unknown; totals: { requests: number } };
    expect(report).toMatchObject({ error: null, totals: { requests: 0 } });
    const xml = readFileSync(junit, 'utf8');
    expect(xml).not.toMatch(/<failure|the server can be reached/);
    expect(xml.match(/<skipped\/>/g)).toHaveLength(1);
    expect(process.listeners('SIGINT').filter((listener) => !before.has(listener))).toEqual([]);
  }, 30_000);
});
