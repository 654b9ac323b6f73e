/** When one rule's match takes every request of another's, and when it only may (shadow.ts). */
import { describe, expect, it } from 'vitest';
import type { FaultRule } from '../api/fault-types.js';
import { covers, mayOverlap, withShadows } from './shadow.js';

describe('covers: every request the inner match takes, the outer takes too', () => {
  it.each([
    [{}, { path: '/itemWindow', reason: 'load' }, true],
    [{ path: '/itemWindow' }, { path: '/queues/q/v2.3/itemWindow', reason: 'skipNext' }, true],
    [{ path: 'itemWindow' }, { path: '/itemWindow' }, true],
    [{ path: '/itemWindow' }, { path: '/Window' }, false],
    [{ path: '/Window' }, { path: '/itemWindow' }, false],
    [{ method: 'get' }, { method: 'GET', path: '/version' }, true],
    [{ method: 'GET' }, { path: '/version' }, false],
    [{ reason: 'refresh' }, { path: '/itemWindow' }, false],
    [{ path: '/itemWindow' }, {}, false],
    [{ path: '*' }, { path: '/queues/*/version' }, true],
    [{ path: '*/version' }, { path: '/queues/q/v2.3/version' }, true],
    [{ path: '*/version' }, { path: '/queues/*/version' }, false],
    [{ path: '/queues/*/version' }, { path: '/queues/*/version' }, true],
    [{ path: '/queues/*' }, { path: '/version' }, false],
    [{ path: '/version' }, { path: '/queues/*/version' }, true],
  ])('%j covers %j: %s', (outer, inner, expected) => {
    expect(covers(outer, inner)).toBe(expected);
  });
});

describe('mayOverlap: whether one request could match both', () => {
  it.each([
    [{ reason: 'refresh' }, { reason: 'load' }, false],
    [{ method: 'GET' }, { method: 'POST' }, false],
    [{ path: '/version' }, { path: '/itemWindow' }, false],
    [{ path: '/itemWindow', reason: 'refresh' }, { path: '/itemWindow' }, true],
    [{ path: '/queues/*' }, { path: '/version' }, true],
  ])('%j and %j: %s', (a, b, expected) => {
    expect(mayOverlap(a, b)).toBe(expected);
  });
});

describe('withShadows', () => {
  const rule = (id: string, fields: Partial<FaultRule>): FaultRule => ({
    id,
    target: 'cloudQueue',
    match: {},
    action: { type: 'status', status: 503 },
    hits: 0,
    passes: 0,
    spent: false,
    createdAt: 0,
    ...fields,
  });

  it('an earlier rule of another target shadows nothing, a spent one neither', () => {
    const views = withShadows([
      rule('a', { target: 'control' }),
      rule('b', { spent: true, times: 1, hits: 1 }),
      rule('c', { match: { path: '/version' } }),
    ]);
    expect(views[2]).toMatchObject({ shadowedBy: null, shadow: null });
  });

  it('a player rule that fails requests partly shadows a cloudQueue rule, whatever their order; a latency one does not', () => {
    const views = withShadows([
      rule('server', { match: { path: '/version' } }),
      rule('client', { target: 'player', action: { type: 'drop' } }),
    ]);
    expect(views[0]).toMatchObject({
      shadowedBy: null,
      shadow: 'partial',
      warning: expect.stringContaining("in the player's client"),
    });
    const slow = withShadows([
      rule('server', { match: { path: '/version' } }),
      rule('client', { target: 'player', action: { type: 'latency', ms: 10 } }),
    ]);
    expect(slow[0]!.shadow).toBeNull();
  });

  it('a partial overlap is said as one: the earlier rule takes the requests both match', () => {
    const views = withShadows([
      rule('refresh', { match: { path: '/itemWindow', reason: 'refresh' } }),
      rule('window', { match: { path: '/itemWindow' }, action: { type: 'status', status: 404 } }),
    ]);
    expect(views[1]).toMatchObject({
      shadowedBy: null,
      shadow: 'partial',
      warning: expect.stringContaining('partly shadowed'),
    });
  });
});
