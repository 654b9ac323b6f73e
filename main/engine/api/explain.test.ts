import { describe, expect, it } from 'vitest';
import { commandSpecs } from './commands.js';
import { explainInput } from './explain.js';
import { createCommandRunner, type CommandHandlers } from './runner.js';

const save = commandSpecs['scenarios.save'].input;
const scenario = (step: unknown) => ({ name: 'x', steps: [{ type: 'clearFaults' }, step] });

describe('explaining a refused input', () => {
  it.each([
    [{ type: 'clock', advanceMs: -1 }, '/steps/1/advanceMs', 'must be >= 0'],
    [{ type: 'command', method: 'POST', path: '/households' }, '/steps/1/path', 'must match pattern "^/api/v1/"'],
    [{ type: 'expect', playerId: 'p', state: 'WHATEVER' }, '/steps/1/state', 'must be one of IDLE, BUFFERING, PLAYING, PAUSED, SUSPENDED'],
    [{ type: 'fault', rule: { target: 'somewhere', action: { type: 'drop' } } }, '/steps/1/rule/target', 'must be one of login, control, cloudQueue, player'],
    [{ type: 'action', playerId: 'p' }, '/steps/1', 'must have required properties action'],
    [{ type: 'fault', rule: { target: 'cloudQueue', action: { type: 'status', status: 999 } } }, '/steps/1/rule/action/status', 'must be <= 599'],
    [{ type: 'fault', rule: { target: 'cloudQueue', action: { type: 'explode' } } }, '/steps/1/rule/action/type', 'must be one of status, timeout, drop, latency, malformed'],
    [{ type: 'nope' }, '/steps/1/type', 'must be one of fault, clearFaults, action, command, clock, expect'],
  ])('a step %j is blamed at %s', (step, path, message) => {
    const problem = explainInput(save, scenario(step));
    expect(problem?.path).toBe(path);
    expect(problem?.message).toContain(message);
  });

  it('says nothing about a valid input, and blames missing fields where they are missing', () => {
    expect(explainInput(save, scenario({ type: 'clock', speed: 0 }))).toBeNull();
    expect(explainInput(save, { steps: [{ type: 'clearFaults' }] })).toEqual({ path: '/', message: expect.stringContaining('name') });
  });

  it('is the message the command runner answers with', async () => {
    const runner = createCommandRunner({} as CommandHandlers);
    await expect(runner.run('scenarios.save', scenario({ type: 'clock', advanceMs: -5 }))).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'scenarios.save: /steps/1/advanceMs must be >= 0',
    });
  });
});
