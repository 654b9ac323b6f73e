import { beforeAll, describe, expect, it } from 'vitest';
import { commandSpecs } from './commands.js';
import { explainAll } from './explain.js';
import { loadCompiler } from './lazy-typebox.js';
import { createCommandRunner, type CommandHandlers } from './runner.js';

const save = commandSpecs['scenarios.save'].input;
const scenario = (step: unknown) => ({ name: 'x', steps: [{ type: 'clearFaults' }, step] });
// Explaining follows a refused check, which loads the compiler; these explain without one.
beforeAll(async () => {
  await loadCompiler();
});

/** The problem the error's message tells. */
const explainInput = (schema: typeof save, value: unknown) => explainAll(schema, value)[0] ?? null;

describe('explaining a refused input', () => {
  it.each([
    [{ type: 'clock', advanceMs: -1 }, '/steps/1/advanceMs', 'must be >= 0'],
    [{ type: 'command', method: 'POST', path: '/households' }, '/steps/1/path', 'must match pattern "^/api/v1/"'],
    [
      { type: 'expect', playerId: 'p', state: 'WHATEVER' },
      '/steps/1/state',
      'must be one of IDLE, BUFFERING, PLAYING, PAUSED, SUSPENDED',
    ],
    [
      { type: 'fault', rule: { target: 'somewhere', action: { type: 'drop' } } },
      '/steps/1/rule/target',
      'must be one of login, control, cloudQueue, player',
    ],
    [{ type: 'action', playerId: 'p' }, '/steps/1', 'must have required properties action'],
    [
      { type: 'fault', rule: { target: 'cloudQueue', action: { type: 'status', status: 999 } } },
      '/steps/1/rule/action/status',
      'must be <= 599',
    ],
    [
      { type: 'fault', rule: { target: 'cloudQueue', action: { type: 'explode' } } },
      '/steps/1/rule/action/type',
      'must be one of status, timeout, drop, latency, malformed',
    ],
    [
      { type: 'nope' },
      '/steps/1/type',
      'must be one of fault, faultRemove, faultMove, faultTrigger, trigger, queueEdit, clearFaults, action, command, clock, expect',
    ],
    // A misspelt field, in words its writer reads (audit: "schema is false").
    [
      { type: 'expect', playerId: 'p', itemID: 'item-5' },
      '/steps/1/itemID',
      'is not a field this takes (unknown field: misspelt?)',
    ],
  ])('a step %j is blamed at %s', (step, path, message) => {
    const problem = explainInput(save, scenario(step));
    expect(problem?.path).toBe(path);
    expect(problem?.message).toContain(message);
  });

  it('says nothing about a valid input, and blames missing fields where they are missing', () => {
    expect(explainInput(save, scenario({ type: 'clock', speed: 0 }))).toBeNull();
    expect(explainInput(save, { steps: [{ type: 'clearFaults' }] })).toEqual({
      path: '/',
      message: expect.stringContaining('name'),
    });
  });

  it('is the message the command runner answers with', async () => {
    const runner = createCommandRunner({} as CommandHandlers);
    await expect(runner.run('scenarios.save', scenario({ type: 'clock', advanceMs: -5 }))).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'scenarios.save: /steps/1/advanceMs must be >= 0',
    });
  });

  it('tells every refused place once, also after a wrong action, where the validator stops at eight', () => {
    const add = commandSpecs['faults.add'].input;
    const rule = {
      target: 'cloudQueue',
      action: { type: 'status', status: 99, retryAfter: -1 },
      probability: 3,
      seed: -1,
    };
    expect(explainAll(add, rule)).toEqual([
      { path: '/action/status', message: 'must be >= 200' },
      { path: '/action/retryAfter', message: 'must be >= 0' },
      { path: '/probability', message: 'must be <= 1' },
      { path: '/seed', message: 'must be >= 0' },
    ]);
    // A missing field of this level comes after the places deeper down.
    expect(explainAll(save, { steps: [{ type: 'clock', advanceMs: -1 }] })).toEqual([
      { path: '/steps/0/advanceMs', message: 'must be >= 0' },
      { path: '/', message: expect.stringContaining('name') },
    ]);
  });

  it('gives the command runner its details: every problem, the first in the message', async () => {
    const runner = createCommandRunner({} as CommandHandlers);
    await expect(
      runner.run('faults.add', {
        target: 'cloudQueue',
        action: { type: 'latency', ms: -1 },
        times: 0,
        label: 'x'.repeat(201),
      }),
    ).rejects.toMatchObject({
      message: 'faults.add: /action/ms must be >= 0',
      details: [
        { path: '/action/ms', message: 'must be >= 0' },
        { path: '/times', message: 'must be >= 1' },
        { path: '/label', message: expect.stringContaining('200') },
      ],
    });
  });

  it('lists at most 100 refused places, however many the input has', async () => {
    const runner = createCommandRunner({} as CommandHandlers);
    const items = Array.from({ length: 150 }, () => ({ track: { name: 7 } }));
    const refused = await runner
      .run('queues.create', { name: 'many', items })
      .catch((error: { details: unknown[] }) => error);
    expect((refused as { details: unknown[] }).details).toHaveLength(100);
  });

  it('explains a file of 200,000 refused items without running out of stack, from the first item on', async () => {
    const runner = createCommandRunner({} as CommandHandlers);
    const items = Array.from({ length: 200_000 }, () => ({ track: { name: 7 } }));
    const refused = (await runner.run('queues.create', { name: 'huge', items }).catch((error: unknown) => error)) as {
      code: string;
      message: string;
      details: { path: string }[];
    };
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toBe('queues.create: /items/0/track/name must be string');
    expect(refused.details).toHaveLength(100);
    expect(refused.details.at(-1)!.path).toBe('/items/99/track/name');
    expect(explainAll(commandSpecs['queues.create'].input, { name: 'huge', items }, '', 3).map((p) => p.path)).toEqual([
      '/items/0/track/name',
      '/items/1/track/name',
      '/items/2/track/name',
    ]);
  });
});
