/**
 * Every starter template passes against a real engine, on a queue of sample tracks as the Queues
 * area generates them: a template that fails would teach the wrong thing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../../main/engine/index.js';
import { startTestEngine } from '../../../../main/engine/testing/http.js';
import { SCENARIO_TEMPLATES, type TemplateTarget } from './templates';

let engine: Engine;
let target: TemplateTarget;

beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  const queue = await engine.commands.run('queues.create', { name: 'Templates' });
  await engine.commands.run('queues.items.generate', { id: queue.id, count: 20 });
  const state = await engine.commands.run('state.get', {});
  const group = state.groups.find((g) => g.name === 'Office')!;
  target = {
    queueId: queue.id,
    httpAuthorization: queue.httpAuthorization,
    groupId: group.id,
    playerId: group.coordinatorId,
  };
});
afterAll(() => engine.close());

describe('scenario templates', () => {
  it.each(SCENARIO_TEMPLATES.map((t) => [t.label, t] as const))('%s passes', async (_label, template) => {
    const saved = await engine.commands.run('scenarios.save', template.build(target));
    const report = await engine.commands.run('scenarios.run', { id: saved.id });
    expect(report.passed, JSON.stringify(report.steps.filter((s) => s.status === 'failed'))).toBe(true);
    expect(report.steps.every((s) => s.status === 'passed')).toBe(true);
  });
});
