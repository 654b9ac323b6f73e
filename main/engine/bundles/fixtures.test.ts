/**
 * Old bundles keep working: bundles exported by 0.1.0 (format version 1, fixtures/, exported by
 * that build from a fresh console at a stopped clock) import and run to PASS on this one. Their
 * scenario lacks the calls 0.1.0 could not derive from the traffic (Send now, a rule removed), so
 * the transitions those caused are no longer expected, and a note says so.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleImportResult } from '../api/bundle-types.js';
import type { ScenarioReport } from '../api/scenario-types.js';
import type { StoredScenarioView } from '../api/commands/scenarios.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

async function ok<T>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await admin(engine!, method, path, body);
  if (answer.status !== 200)
    throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

describe.each([
  ['v1-storm-send-now.json', '503 storm, Send now: Refresh, +1 min', 'POST /admin/api/players/player-…/trigger'],
  ['v1-rule-removed.json', 'a rule injected, triggered and removed', 'rules removed before the export'],
])('the 0.1.0 bundle %s (%s)', (name, _path, missed) => {
  it('imports with a note on what it cannot replay, and runs to PASS', async () => {
    engine = await startTestEngine({ clockSpeed: 0 });
    const bundle = fixture(name);
    expect(bundle.version).toBe(1);
    const imported = await ok<BundleImportResult>('POST', '/bundles/import', bundle);
    expect(imported.notes).toContainEqual(
      expect.stringMatching(/^a version 1 bundle .*the transitions it expected are not checked/),
    );
    expect(imported.notes.at(-1)).toContain(missed);
    const saved = await ok<StoredScenarioView>('GET', `/scenarios/${imported.scenario.id}`);
    // What it cannot cause is no longer expected.
    expect(saved.steps.some((s) => s.type === 'expect' && s.transitions?.includes('refresh-command'))).toBe(false);
    const report = await ok<ScenarioReport>('POST', `/scenarios/${imported.scenario.id}/run`);
    expect(report.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(report.passed).toBe(true);
    // It still replays what it holds: the queue loads and plays on Kitchen.
    expect(report.transitions.map((t) => t.transition)).toEqual(
      expect.arrayContaining(['load-begins', 'load-answered-plays']),
    );
  });
});

it('a version 1 bundle that holds everything it expects keeps its checks', async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  const bundle = fixture('v1-storm-send-now.json') as {
    har: { log: { entries: { request: { url: string } }[] } };
    scenario: { steps: { type: string; transitions?: string[] }[] };
  };
  bundle.har.log.entries = bundle.har.log.entries.filter((e) => !e.request.url.includes('/trigger'));
  const expectStep = bundle.scenario.steps.find((s) => s.type === 'expect')!;
  expectStep.transitions = ['load-begins', 'load-answered-plays'];
  const imported = await ok<BundleImportResult>('POST', '/bundles/import', bundle);
  expect(imported.notes).toEqual([]);
  const saved = await ok<StoredScenarioView>('GET', `/scenarios/${imported.scenario.id}`);
  expect(saved.steps.find((s) => s.type === 'expect')).toMatchObject({
    transitions: ['load-begins', 'load-answered-plays'],
  });
  expect((await ok<ScenarioReport>('POST', `/scenarios/${imported.scenario.id}/run`)).passed).toBe(true);
});
