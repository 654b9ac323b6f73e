import { describe, expect, it } from 'vitest';
import { areaOfPath } from './areas';
import { parseQuery, stringifyQuery } from './query-string';
import {
  conformanceSearch,
  faultsSearch,
  oauthSearch,
  playerSearch,
  queuesSearch,
  trafficFilterOf,
  trafficSearch,
  trafficSearchOf,
  type TrafficSearch,
} from './search';

/** What the address holds: every value a string, as parseQuery reads it. */
const fromAddress = (query: string) => parseQuery(query) as never;

/** The fields a schema kept (undefined ones are what hides a refused raw value: see search.ts). */
const kept = (search: object) => JSON.parse(JSON.stringify(search)) as Record<string, unknown>;

describe('the traffic address', () => {
  it('reads every filter and the open entry from the strings of the address', () => {
    expect(
      kept(
        trafficSearch(fromAddress('?target=player&reason=load&status=503&text=itemWindow&request=3f2c-ab&entry=12')),
      ),
    ).toEqual({
      target: 'player',
      reason: 'load',
      status: '503',
      text: 'itemWindow',
      request: '3f2c-ab',
      entry: 12,
    });
  });

  it('keeps the links the console already made working: #/traffic?entry=12 and #/traffic?request=<id>', () => {
    expect(kept(trafficSearch(fromAddress('?entry=12')))).toEqual({ entry: 12 });
    expect(kept(trafficSearch(fromAddress('?request=b8a1e1d2-5c4f-4f61-9f0e-2c3b1d0a9e77')))).toEqual({
      request: 'b8a1e1d2-5c4f-4f61-9f0e-2c3b1d0a9e77',
    });
  });

  it.each([
    ['an entry that is not a whole number from 1', '?entry=abc&target=login', { target: 'login' }],
    ['entry 0', '?entry=0&target=login', { target: 'login' }],
    ['a negative entry', '?entry=-4&target=login', { target: 'login' }],
    ['a fractional entry', '?entry=1.5&target=login', { target: 'login' }],
    ['an unknown target', '?target=mars&entry=5', { entry: 5 }],
    ['a reason no player sends', '?reason=teleport&target=login', { target: 'login' }],
    ['a status the engine would refuse', '?status=6xx&target=login', { target: 'login' }],
    ['an empty text', '?text=&target=login', { target: 'login' }],
    ['a blank request id', '?request=%20%20&target=login', { target: 'login' }],
    ['a request id longer than the engine takes', `?request=${'r'.repeat(201)}&target=login`, { target: 'login' }],
  ])('drops %s and keeps the rest', (_, query, expected) => {
    expect(kept(trafficSearch(fromAddress(query)))).toEqual(expected);
  });

  it('writes a status class in lower case, as the engine reads it', () => {
    expect(trafficSearch(fromAddress('?status=4XX')).status).toBe('4xx');
    expect(trafficSearch(fromAddress('?status=NONE')).status).toBe('none');
  });

  it('hides a refused raw value when the router lays the schema over the raw query', () => {
    const raw = parseQuery('?entry=abc&target=player');
    expect({ ...raw, ...trafficSearch(raw as TrafficSearch) }.entry).toBeUndefined();
  });

  it('turns into the engine filter and back, with no empty fields (the filter is a cache key)', () => {
    const search = trafficSearch(fromAddress('?target=player&request=r-1&entry=3'));
    expect(trafficFilterOf(search)).toStrictEqual({ target: 'player', requestId: 'r-1' });
    expect(kept(trafficSearchOf(trafficFilterOf(search)))).toEqual({ target: 'player', request: 'r-1' });
  });
});

describe('the other areas', () => {
  it('player: a transition belongs to a player, and is dropped without one', () => {
    expect(kept(playerSearch(fromAddress('?player=player-kitchen&transition=7')))).toEqual({
      player: 'player-kitchen',
      transition: 7,
    });
    expect(kept(playerSearch(fromAddress('?transition=7')))).toEqual({});
    expect(kept(playerSearch(fromAddress('?player=player-kitchen&transition=x')))).toEqual({
      player: 'player-kitchen',
    });
  });

  it('player: the requests shown are one of the strip’s choices, or all of them', () => {
    expect(kept(playerSearch(fromAddress('?player=p&requests=failed')))).toEqual({ player: 'p', requests: 'failed' });
    expect(kept(playerSearch(fromAddress('?requests=no-reports')))).toEqual({ requests: 'no-reports' });
    expect(kept(playerSearch(fromAddress('?player=p&requests=all')))).toEqual({ player: 'p' });
    expect(kept(playerSearch(fromAddress('?player=p&requests=FAILED')))).toEqual({ player: 'p' });
  });

  it('queues: an id that looks like a number is still an id', () => {
    expect(queuesSearch({ queue: 42 } as never)).toEqual({ queue: '42' });
    expect(kept(queuesSearch(fromAddress('?queue=')))).toEqual({});
  });

  it('oauth: an empty integration means every card folded, not the default', () => {
    expect(oauthSearch(fromAddress('?integration=&flow=f-1'))).toEqual({ integration: '', flow: 'f-1' });
    expect(kept(oauthSearch(fromAddress('?flow=')))).toEqual({});
  });

  it('faults and conformance: the open scenario and run; anything absurdly long is no id', () => {
    expect(faultsSearch(fromAddress('?scenario=503-storm'))).toEqual({ scenario: '503-storm' });
    expect(conformanceSearch(fromAddress('?run=run-9'))).toEqual({ run: 'run-9' });
    expect(kept(conformanceSearch({ run: 'x'.repeat(501) }))).toEqual({});
    expect(kept(conformanceSearch({ run: { nested: true } } as never))).toEqual({});
  });
});

describe('the query string', () => {
  it('is plain key=value pairs, a numeric-looking string unquoted, an empty string kept', () => {
    expect(stringifyQuery({ entry: 12, queue: '42', integration: '', flow: undefined })).toBe(
      '?entry=12&queue=42&integration=',
    );
    expect(stringifyQuery({})).toBe('');
  });

  it('reads back what it wrote, strings only; the first of a repeated key wins', () => {
    expect(parseQuery(stringifyQuery({ text: 'a b&c=d', request: 'r/1' }))).toEqual({
      text: 'a b&c=d',
      request: 'r/1',
    });
    expect(parseQuery('?entry=1&entry=2')).toEqual({ entry: '1' });
  });
});

describe('areas in the address', () => {
  it.each([
    ['/', 'oauth'],
    ['/queues', 'queues'],
    ['traffic', 'traffic'],
    ['#/traffic?entry=3', 'traffic'],
    ['/player/player-kitchen', 'player'],
    ['/nonsense', 'oauth'],
  ])('%s opens %s', (path, area) => expect(areaOfPath(path)).toBe(area));
});
