import { describe, expect, it } from 'vitest';
import {
  checkStatusFilter,
  cleanFilter,
  cutNote,
  faultText,
  formFields,
  kib,
  otherSide,
  pairSide,
  prettyBody,
  rowLabel,
  statusClass,
  statusText,
} from './format';

describe('traffic entries at a glance', () => {
  it.each([
    [200, '2xx'],
    [204, '2xx'],
    [302, '3xx'],
    [404, '4xx'],
    [503, '5xx'],
    [null, 'none'],
  ] as const)('status %s is %s', (status, cls) => expect(statusClass(status)).toBe(cls));

  it('says what happened to a request that got no answer', () => {
    expect(statusText({ status: null, outcome: 'timeout' })).toBe('timeout');
    expect(statusText({ status: null, outcome: 'dropped' })).toBe('dropped');
    expect(statusText({ status: 503, outcome: 'answered' })).toBe('503');
  });

  it('names the injected fault', () => {
    expect(faultText({ ruleId: 'f', action: 'status', status: 503, label: '503 storm' })).toBe(
      'injected: 503 storm (status 503)',
    );
    expect(faultText({ ruleId: 'f', action: 'drop' })).toBe('injected: drop');
  });

  it('reads a row out whole: target, request, reason, status, retry and the injected fault', () => {
    const entry = {
      target: 'player',
      method: 'GET',
      path: '/queues/q/v2.3/itemWindow',
      reason: 'refresh',
      status: 503,
      outcome: 'answered',
      retry: 2,
    } as const;
    expect(rowLabel({ ...entry, fault: { ruleId: 'f', action: 'status', status: 503, label: '503 storm' } })).toBe(
      'player GET /queues/q/v2.3/itemWindow, reason refresh, 503, retry 2, injected: 503 storm (status 503)',
    );
    expect(rowLabel({ ...entry, reason: null, status: null, outcome: 'timeout', retry: 0, fault: null })).toBe(
      'player GET /queues/q/v2.3/itemWindow, timeout',
    );
  });

  it('pretty-prints JSON bodies and leaves others alone', () => {
    expect(prettyBody('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyBody('{"broken": [')).toBe('{"broken": [');
    expect(prettyBody('Incorrect token')).toBe('Incorrect token');
    expect(prettyBody(null)).toBe('');
  });

  it("reads a form body's fields decoded, a mask as it reads (audit-ui W10), and no other body", () => {
    const masked = 'grant_type=authorization_code&code=W5B957%E2%80%A6+%2843+chars%29&redirect_uri=http%3A%2F%2Fx%2Fcb';
    expect(formFields(masked, { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' })).toEqual([
      ['grant_type', 'authorization_code'],
      ['code', 'W5B957… (43 chars)'],
      ['redirect_uri', 'http://x/cb'],
    ]);
    expect(formFields(masked, { 'content-type': 'application/json' })).toBeNull();
    expect(formFields(masked, {})).toBeNull();
    expect(formFields('', { 'content-type': 'application/x-www-form-urlencoded' })).toBeNull();
  });

  it('takes a status, a class or none, and says what it takes otherwise', () => {
    expect(checkStatusFilter('')).toEqual({ ok: true });
    expect(checkStatusFilter(' 4XX ')).toEqual({ ok: true, status: '4xx' });
    expect(checkStatusFilter('503')).toEqual({ ok: true, status: '503' });
    expect(checkStatusFilter('None')).toEqual({ ok: true, status: 'none' });
    expect(checkStatusFilter('50')).toMatchObject({ ok: false });
  });

  it('keeps only the filter fields that are set', () => {
    expect(cleanFilter({ target: 'player', reason: '', text: undefined, status: '5xx' })).toEqual({
      target: 'player',
      status: '5xx',
    });
  });

  it('says what capture cut in KiB, with a decimal for small sizes', () => {
    expect(cutNote({ kept: 65_536, size: 100_010 })).toBe('cut at 64 KiB of 98 KiB');
    expect(cutNote({ kept: 1_100, size: 15_300 })).toBe('cut at 1.1 KiB of 15 KiB');
    expect(kib(2_000_000)).toBe('1,953 KiB');
  });
});

describe('the other side of a request', () => {
  const player = { id: 7, target: 'player' as const };
  const server = { id: 8, target: 'cloudQueue' as const };
  it('pairs the player’s entry with the server’s, and back', () => {
    expect(otherSide(player, [player, server])).toBe(server);
    expect(otherSide(server, [player, server])).toBe(player);
    expect(pairSide(server)).toBe('the server’s side');
    expect(pairSide(player)).toBe('the player’s side');
  });
  it('has none when the request went to a server the console does not run', () => {
    expect(otherSide(player, [player])).toBeNull();
  });
});
