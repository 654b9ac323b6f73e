/**
 * A run of some cases (what `check --replay` runs) of the two run-long cases (cases/throughout.ts)
 * plays the queue through too: their verdicts rest on the play-through's answers, and without them
 * a server still wrong was FIXED and one now right never was (review).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Engine } from '../index.js';
import { startTestEngine } from '../testing/http.js';
import { startDefectiveServer } from './testing/defective-server.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

async function runCases(baseUrl: string, authorization: string, cases?: string[]) {
  const { id } = await engine.commands.run('conformance.runs.start', {
    baseUrl,
    authorization,
    ...(cases ? { cases } : {}),
  });
  for (;;) {
    const run = await engine.commands.run('conformance.runs.get', { id });
    if (run.status !== 'running') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('a replay of a failing item-window.ends-everywhere still fails on the server that still has the defect', async () => {
  const server = await startDefectiveServer({ endFalseForPlayer: true });
  try {
    const whole = await runCases(server.baseUrl, server.authorization);
    expect(whole.cases.find((c) => c.id === 'item-window.ends-everywhere')!.outcome).toBe('fail');
    // What check --replay runs for it: the case and what it builds on (selection.ts).
    const replay = await runCases(server.baseUrl, server.authorization, ['item-window.ends-everywhere']);
    const now = replay.cases.find((c) => c.id === 'item-window.ends-everywhere')!;
    expect(now.outcome).toBe('fail');
  } finally {
    await server.close();
  }
}, 60_000);

it('a replay of version.throughout on a server now right says fixed', async () => {
  const server = await startDefectiveServer({});
  try {
    const replay = await runCases(server.baseUrl, server.authorization, ['version.throughout']);
    const now = replay.cases.find((c) => c.id === 'version.throughout')!;
    expect(now.outcome).toBe('pass');
  } finally {
    await server.close();
  }
}, 60_000);
