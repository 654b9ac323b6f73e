/**
 * The "In CI" example of docs/scenarios-and-bundles.md, as a CI job would run it against a fresh console: the queue from
 * examples/ci-queue.json, its base URL and Authorization put into examples/ci-503-storm.json, the
 * scenario saved and run over the admin API. An example in the docs that fails is a bug.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { QueueSummary } from '../api/queue-types.js';
import type { ScenarioReport } from '../api/scenario-types.js';
import type { Engine } from '../index.js';
import { PROJECT_ROOT } from '../../testing/serve-process.js';
import { admin, startTestEngine } from '../testing/http.js';

const example = (name: string) => readFileSync(join(PROJECT_ROOT, 'examples', name), 'utf8');

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

it('passes on a fresh console, saved and run as the docs write it', async () => {
  const queue = (await admin(engine, 'POST', '/queues', JSON.parse(example('ci-queue.json')))).body as QueueSummary;
  // The docs' sed: the placeholders swapped for the queue the console just made.
  const scenario = example('ci-503-storm.json')
    .replaceAll('QUEUE_BASE_URL', queue.queueBaseUrl)
    .replaceAll('QUEUE_AUTHORIZATION', queue.httpAuthorization);
  const saved = await admin(engine, 'POST', '/scenarios', JSON.parse(scenario));
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  expect(saved.body).toMatchObject({ id: 'ci-503-storm' });

  const { status, body } = await admin(engine, 'POST', '/scenarios/ci-503-storm/run');
  expect(status).toBe(200);
  const report = body as ScenarioReport;
  expect(report.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  expect(report.passed).toBe(true);
});
