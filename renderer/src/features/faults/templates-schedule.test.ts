/**
 * The templates' retry figures and clock steps are told from the retry schedule: told from a
 * changed copy, each that names one changes with it (templates.test.ts runs them as they are).
 */
import { RETRY_SCHEDULE, type RetrySchedule } from '@engine-api/retry-schedule';
import type { ScenarioStep } from '@engine-api/scenario-types';
import { describe, expect, it } from 'vitest';
import { scenarioTemplates, type TemplateTarget } from './templates';

const OTHER: RetrySchedule = {
  ...RETRY_SCHEDULE,
  backgroundRetries: 5,
  backgroundRetryIntervalMs: 7_000,
  requestTimeoutMs: 12_000,
  versionPollPlayingMs: 480_000,
};
const TARGET: TemplateTarget = { queueId: 'q', httpAuthorization: 'Bearer t', groupId: 'g', playerId: 'p' };

/** Each template's description, and the clock steps and fault counts its steps take. */
const told = (schedule?: RetrySchedule) =>
  new Map(
    scenarioTemplates(schedule).map((t) => {
      const draft = t.build(TARGET);
      const figures = draft.steps.flatMap((step: ScenarioStep) =>
        step.type === 'clock' && step.advanceMs !== undefined
          ? [`clock ${step.advanceMs}`]
          : step.type === 'fault' && step.rule.times !== undefined
            ? [`times ${step.rule.times}`]
            : [],
      );
      return [t.id, { description: t.description, figures }];
    }),
  );

describe('scenario templates and the retry schedule', () => {
  it('tell every retry figure from the schedule they are given', () => {
    const before = told();
    const after = told(OTHER);
    const changed = [...after].filter(([id, t]) => t.description !== before.get(id)!.description).map(([id]) => id);
    expect(changed.sort()).toEqual(['503-storm', 'refresh-timeout', 'version-drop-player']);
    expect(after.get('503-storm')!.description).toContain(
      'The version poll (8 min in) and its five background retries fail',
    );
    expect(after.get('refresh-timeout')!.description).toContain('six tries 7 s apart');
    expect(after.get('version-drop-player')!.description).toContain('retried in the background 7 s later');
  });

  it('move the clock as far as the schedule takes', () => {
    const before = told();
    const after = told(OTHER);
    expect(before.get('503-storm')!.figures).toContain(`clock ${10 * 60_000 + 3 * 10_000}`);
    expect(after.get('503-storm')!.figures).toContain(`clock ${480_000 + 5 * 7_000}`);
    expect(after.get('refresh-timeout')!.figures).toEqual([
      'clock 1000',
      'times 6',
      `clock ${5 * 7_000 + 12_000 + 5_000}`,
    ]);
    expect(after.get('version-drop-player')!.figures).toContain(`clock ${480_000 + 2 * 7_000}`);
  });
});
