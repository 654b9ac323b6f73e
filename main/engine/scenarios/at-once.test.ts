/**
 * Steps made at once (`overlapsPrevious`) in a hand-written scenario: misplaced, refused before
 * anything runs; the last of them refused before it settled still lets the held requests go.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ScenarioStep } from '../api/scenario-types.js';
import type { Engine } from '../index.js';
import { PLAYER } from '../bundles/testing-actions.js';
import { consoleLoadingKitchen } from './testing-console.js';

const opened: Engine[] = [];
afterAll(async () => {
  for (const engine of opened) await engine.close();
});

const consoleWithQueue = () => consoleLoadingKitchen(opened, 2_000);

describe('steps made at once', () => {
  it('are refused where nothing comes before them to be made at once with, or afterAnswers stands alone', async () => {
    const { engine, load } = await consoleWithQueue();
    const pause: ScenarioStep = { type: 'action', playerId: PLAYER, action: 'pause' };
    for (const [steps, said] of [
      [[...load, { ...pause, overlapsPrevious: true }], /\/steps\/4 has overlapsPrevious with no command/],
      [[{ ...pause, overlapsPrevious: true }, ...load], /\/steps\/0 has overlapsPrevious/],
      [[...load, pause, { ...pause, afterAnswers: 1 }], /\/steps\/5 has afterAnswers without overlapsPrevious/],
    ] as const)
      await expect(engine.commands.run('scenarios.save', { name: 'Misplaced', steps: [...steps] })).rejects.toThrow(
        said,
      );
  });

  it('let the held requests go when the last of them is refused before it settles', async () => {
    const { engine, load } = await consoleWithQueue();
    const steps: ScenarioStep[] = [
      ...load,
      // Refused, unjudged, and saving nothing: the pause below names no session.
      {
        type: 'command',
        method: 'POST',
        path: '/api/v1/groups/group-nope/playbackSession:1',
        body: { appId: 'a', appContext: 'b' },
        save: { nope: 'sessionId' },
        outcomeNotChecked: 'a hand-written step',
      },
      { type: 'trigger', playerId: PLAYER, request: 'refresh' },
      {
        type: 'command',
        method: 'POST',
        path: '/api/v1/playbackSessions/${nope}/playbackSession:1/pause',
        overlapsPrevious: true,
        outcomeNotChecked: 'a hand-written step',
      },
      { type: 'clock', advanceMs: 15_000 },
      { type: 'expect', playerId: PLAYER, transitions: ['refresh-command', 'window-answered'] },
    ];
    const scenario = await engine.commands.run('scenarios.save', { name: 'Refused last', steps });
    const report = await engine.commands.run('scenarios.run', { id: scenario.id });
    expect(report.steps.filter((step) => step.status === 'failed')).toEqual([]);
    expect(report.wallMs).toBeLessThan(2_000);
  });
});
