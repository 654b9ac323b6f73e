import { describe, expect, it } from 'vitest';
import { engineProblem, parseScenarioText, scenarioToText } from './scenario-text';

describe('scenario text', () => {
  it('round-trips a draft', () => {
    const draft = { id: 'ci-1', name: 'x', steps: [{ type: 'clearFaults' as const }] };
    expect(parseScenarioText(scenarioToText(draft)).draft).toEqual(draft);
  });

  it('says where the JSON breaks, by line and column', () => {
    const { problem } = parseScenarioText('{\n  "name": "x",\n  "steps": [1 2]\n}');
    expect(problem?.message).toMatch(/^Not valid JSON: /);
    // The place once, as line and column, and as the offset the cursor goes to (the `2`).
    expect(problem?.message).not.toMatch(/position|line \d/);
    expect(problem).toMatchObject({ line: 3, column: 15, offset: 31 });
  });

  it('refuses JSON that is not an object', () => {
    expect(parseScenarioText('[1, 2]').problem?.message).toContain('JSON object');
  });

  it('points an engine refusal at its step', () => {
    const details = [{ path: '/steps/3/advanceMs', message: 'must be >= 0' }];
    expect(engineProblem('scenarios.save: /steps/3/advanceMs must be >= 0', details)).toEqual({
      message: 'advanceMs must be >= 0',
      step: 3,
    });
    expect(engineProblem('scenarios.save: /steps/0 must match one of the step types', [{ path: '/steps/0' }])).toEqual({
      message: 'the step must match one of the step types',
      step: 0,
    });
    expect(engineProblem('scenarios.save: /name must not have fewer than 1 characters', undefined)).toEqual({
      message: '/name must not have fewer than 1 characters',
    });
  });
});
