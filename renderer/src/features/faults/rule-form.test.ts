import Value from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { commandSpecs } from '@engine-api/commands';
import { describeAction, describeHits, describeMatch, describeScope } from './describe';
import { EMPTY_RULE, fieldOfPath, ruleFromFields, type RuleFields } from './rule-form';

const form = (patch: Partial<RuleFields>): RuleFields => ({ ...EMPTY_RULE, ...patch });
const accepted = (rule: unknown) => Value.Check(commandSpecs['faults.add'].input, rule);

describe('the custom rule form', () => {
  it('makes a 503 with Retry-After for the next N itemWindow requests of a reason', () => {
    const { rule } = ruleFromFields(
      form({ method: 'get', path: '/itemWindow', reason: 'refresh', status: '503', retryAfter: '4', times: '3' }),
    );
    expect(rule).toEqual({
      target: 'cloudQueue',
      match: { method: 'GET', path: '/itemWindow', reason: 'refresh' },
      action: { type: 'status', status: 503, retryAfter: 4 },
      times: 3,
    });
    expect(accepted(rule)).toBe(true);
  });

  it('sends a body as JSON when it reads as JSON, as text otherwise', () => {
    expect(ruleFromFields(form({ body: '{"error":"nope"}' })).rule?.action).toMatchObject({ body: { error: 'nope' } });
    expect(ruleFromFields(form({ body: 'plain words' })).rule?.action).toMatchObject({ body: 'plain words' });
  });

  it.each([
    [
      { action: 'timeout' as const, scope: 'forever' as const },
      { target: 'cloudQueue', match: {}, action: { type: 'timeout' } },
    ],
    [
      { action: 'latency' as const, latencyMs: '2500', target: 'player' as const },
      { target: 'player', match: {}, action: { type: 'latency', ms: 2_500 }, times: 1 },
    ],
    [
      { action: 'drop' as const, scope: 'probability' as const, probability: '0.25', seed: '42' },
      { target: 'cloudQueue', match: {}, action: { type: 'drop' }, probability: 0.25, seed: 42 },
    ],
    [
      { action: 'malformed' as const, label: ' mine ' },
      { target: 'cloudQueue', match: {}, action: { type: 'malformed' }, times: 1, label: 'mine' },
    ],
  ])('%j makes %j, which the engine takes', (patch, expected) => {
    const { rule } = ruleFromFields(form(patch));
    expect(rule).toEqual(expected);
    expect(accepted(rule)).toBe(true);
  });

  it('blames every field that cannot be read or is out of the engine’s range, at once (audit)', () => {
    expect(ruleFromFields(form({ status: '50x', times: '' })).errors).toEqual({
      status: 'a whole number, 200–599',
      times: 'N is required',
    });
    expect(ruleFromFields(form({ scope: 'probability', probability: 'often' })).errors).toEqual({
      probability: 'Probability must be a number from 0 to 1',
    });
    expect(ruleFromFields(form({ status: '999', retryAfter: '-3', times: '0' })).errors).toEqual({
      status: 'a whole number, 200–599',
      retryAfter: 'a whole number, 0–86,400',
      times: 'a whole number, 1–1,000,000',
    });
    expect(ruleFromFields(form({ scope: 'probability', probability: '1.5' })).errors).toEqual({
      probability: 'Probability must be a number from 0 to 1',
    });
    // What the form takes, the engine's schema takes too.
    const { rule } = ruleFromFields(form({ status: '599', retryAfter: '86400', times: '1000000' }));
    expect(accepted(rule)).toBe(true);
  });

  it('points an engine error path at its field', () => {
    expect(fieldOfPath('/action/status')).toBe('status');
    expect(fieldOfPath('/action/ms')).toBe('latencyMs');
    expect(fieldOfPath('/probability')).toBe('probability');
    expect(fieldOfPath('/somewhere')).toBeUndefined();
  });
});

describe('rules in a few words', () => {
  it('says what a rule matches, does and how long it lasts', () => {
    expect(describeMatch({})).toBe('every request');
    expect(describeMatch({ method: 'get', path: '/itemWindow', reason: 'load' })).toBe('GET /itemWindow reason=load');
    expect(describeAction({ type: 'status', status: 503, retryAfter: 3 })).toBe('503 · Retry-After 3 s');
    expect(describeAction({ type: 'status', status: 403, rejectedReason: 'SKIP_LIMIT_REACHED' })).toBe(
      '403 · X-Rejected-Reason SKIP_LIMIT_REACHED',
    );
    expect(describeScope({})).toBe('until removed');
    expect(describeScope({ times: 4 })).toBe('next 4');
    expect(describeScope({ probability: 0.1, seed: 7 })).toBe('p 0.1, seed 7');
    expect(describeHits({ hits: 2, passes: 0, times: 4 })).toBe('2 / 4');
    expect(describeHits({ hits: 3, passes: 9, probability: 0.25 })).toBe('3 (of 12 matching)');
    expect(describeHits({ hits: 0, passes: 0, probability: 0.5 })).toBe('0 (of 0 matching)');
  });
});
