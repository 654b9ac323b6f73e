/**
 * A 404 for an item an edit took away (gone-items.ts): right only when GET /version names another
 * version than the newest the item was seen in, asked once an item, and the newest version of each
 * id kept within a bound.
 */
import { describe, expect, it } from 'vitest';
import { GoneItems, ItemSightings, SIGHTED_IDS } from './gone-items.js';
import type { Answer, CheckedServer } from './server.js';
import type { WindowView } from './window-view.js';

const view = (version: unknown, ids: string[]) =>
  ({ queueVersion: version, items: ids.map((id) => ({ id })) }) as unknown as WindowView;

const answerOf = (status: number, url: string, fault?: string) =>
  ({
    status,
    json: undefined,
    text: '',
    exchange: { method: 'GET', endpoint: 'itemWindow', url, ...(fault ? { fault } : {}) },
  }) as unknown as Answer;

/** A server whose GET /version says `version`, counting the polls. */
function serverSaying(version: () => string) {
  const polls = { count: 0 };
  const server = {
    version: async () => {
      polls.count++;
      return {
        status: 200,
        json: { queueVersion: version() },
        text: '',
        exchange: { method: 'GET', endpoint: 'version', url: 'http://q/version' },
      } as unknown as Answer;
    },
  } as unknown as CheckedServer;
  return { server, polls };
}

describe('ItemSightings', () => {
  it('keeps the newest version each id was seen in', () => {
    const sightings = new ItemSightings();
    sightings.add(view('v1', ['a', 'b']));
    sightings.add(view('v2', ['b', 'c']));
    sightings.add(view(undefined, ['a']));
    expect([sightings.seenIn('a'), sightings.seenIn('b'), sightings.seenIn('c'), sightings.seenIn('d')]).toEqual([
      'v1',
      'v2',
      'v2',
      undefined,
    ]);
  });

  it(`keeps ${SIGHTED_IDS.toLocaleString('en-US')} ids, and goes on updating those`, () => {
    const sightings = new ItemSightings();
    sightings.add(
      view(
        'v1',
        Array.from({ length: SIGHTED_IDS }, (_, i) => `item-${i}`),
      ),
    );
    sightings.add(view('v2', ['item-0', 'one-too-many']));
    expect(sightings.seenIn('item-0')).toBe('v2');
    expect(sightings.seenIn('one-too-many')).toBeUndefined();
  });
});

describe('GoneItems', () => {
  const url = 'http://q/itemWindow?reason=refresh&itemId=b&queueVersion=v1';

  it('says an item is gone when /version moved from the version it was seen in, asking once an item', async () => {
    const sightings = new ItemSightings();
    sightings.add(view('v1', ['b']));
    const { server, polls } = serverSaying(() => 'v2');
    const gone = new GoneItems(server, sightings);
    const first = await gone.after(answerOf(404, url), 'b');
    expect(first).toMatchObject({ itemId: 'b', seenIn: 'v1', now: 'v2' });
    const again = answerOf(404, url);
    expect(await gone.after(again, 'b')).toMatchObject({ itemId: 'b', answer: again });
    expect(polls.count).toBe(1);
  });

  it('is no excuse while /version names the version the item was seen in, and asks again next time', async () => {
    const sightings = new ItemSightings();
    sightings.add(view('v1', ['b']));
    let version = 'v1';
    const { server, polls } = serverSaying(() => version);
    const gone = new GoneItems(server, sightings);
    expect(await gone.after(answerOf(404, url), 'b')).toBeNull();
    version = 'v2';
    expect(await gone.after(answerOf(404, url), 'b')).toMatchObject({ now: 'v2' });
    expect(polls.count).toBe(2);
  });

  it('asks nothing for another status, a fault, an item never seen or no item', async () => {
    const sightings = new ItemSightings();
    sightings.add(view('v1', ['b']));
    const { server, polls } = serverSaying(() => 'v2');
    const gone = new GoneItems(server, sightings);
    expect(await gone.after(answerOf(500, url), 'b')).toBeNull();
    expect(await gone.after(answerOf(404, url, 'status 404'), 'b')).toBeNull();
    expect(await gone.after(answerOf(404, url), 'never-seen')).toBeNull();
    expect(await gone.after(answerOf(404, url), undefined)).toBeNull();
    expect(polls.count).toBe(0);
  });

  it("reads a player's window's item and version from its request when the run kept none", async () => {
    const { server } = serverSaying(() => 'v2');
    const gone = new GoneItems(server, new ItemSightings());
    expect(await gone.afterAsked(answerOf(404, url))).toMatchObject({ itemId: 'b', seenIn: 'v1', now: 'v2' });
  });
});
