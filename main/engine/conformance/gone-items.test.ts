/**
 * A 404 for an item an edit took away (gone-items.ts): right only when GET /version names another
 * version than the newest the item was seen in, asked once an item, and the newest version of each
 * id kept within a bound.
 */
import { describe, expect, it } from 'vitest';
import { GoneItems, ItemSightings, SIGHTED_IDS, versionKey } from './gone-items.js';
import type { Answer, CheckedServer } from './server.js';
import type { WindowView } from './window-view.js';

const view = (version: unknown, ids: string[]) =>
  ({ queueVersion: version, items: ids.map((id) => ({ id })), answer: { exchange: {} } }) as unknown as WindowView;

const answerOf = (status: number, url: string, fault?: string) =>
  ({
    status,
    json: undefined,
    text: '',
    exchange: { method: 'GET', endpoint: 'itemWindow', url, ...(fault ? { fault } : {}) },
  }) as unknown as Answer;

/** A server whose GET /version says `version`, counting the polls; `fault` as a fault rule's answer. */
function serverSaying(version: () => string, fault?: unknown) {
  const polls = { count: 0 };
  const server = {
    version: async () => {
      polls.count++;
      return {
        status: 200,
        json: { queueVersion: version() },
        text: '',
        exchange: { method: 'GET', endpoint: 'version', url: 'http://q/version', ...(fault ? { fault } : {}) },
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

  it('keeps a long version as a short key, the same for the same version', () => {
    const sightings = new ItemSightings();
    const long = 'v'.repeat(64 * 1024);
    sightings.add(view(long, ['a']));
    sightings.add(view(`${long}`.slice(0, -1) + 'w', ['b']));
    expect(sightings.seenIn('a')!.length).toBeLessThan(200);
    expect(sightings.seenIn('a')).toBe(versionKey('v'.repeat(64 * 1024)));
    expect(sightings.seenIn('b')).not.toBe(sightings.seenIn('a'));
  });

  it('keeps nothing of a window a fault rule answered', () => {
    const sightings = new ItemSightings();
    sightings.add({ ...view('v9', ['a']), answer: { exchange: { fault: { ruleId: 'r' } } } } as unknown as WindowView);
    expect(sightings.seenIn('a')).toBeUndefined();
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

  it('says an item is gone when /version moved from the version it was seen in, asking it twice once an item', async () => {
    const sightings = new ItemSightings();
    sightings.add(view('v1', ['b']));
    const { server, polls } = serverSaying(() => 'v2');
    const gone = new GoneItems(server, sightings);
    const first = await gone.after(answerOf(404, url), 'b');
    expect(first).toMatchObject({ itemId: 'b', seenIn: 'v1', now: 'v2' });
    const again = answerOf(404, url);
    expect(await gone.after(again, 'b')).toMatchObject({ itemId: 'b', answer: again });
    expect(polls.count).toBe(2);
  });

  it('is no excuse while /version names the version the item was seen in, nor asked again for that item', async () => {
    const sightings = new ItemSightings();
    sightings.add(view('v1', ['b']));
    let version = 'v1';
    const { server, polls } = serverSaying(() => version);
    const gone = new GoneItems(server, sightings);
    expect(await gone.after(answerOf(404, url), 'b')).toBeNull();
    version = 'v2';
    expect(await gone.after(answerOf(404, url), 'b')).toBeNull();
    expect(polls.count).toBe(2);
  });

  it('is no excuse when /version moves between two asks back to back (by itself), or a fault rule answered it', async () => {
    const sightings = new ItemSightings();
    sightings.add(view('v1', ['b']));
    let polled = 0;
    const moving = serverSaying(() => `v${++polled + 1}`);
    expect(await new GoneItems(moving.server, sightings).after(answerOf(404, url), 'b')).toBeNull();
    const faulted = serverSaying(() => 'v2', { ruleId: 'r' });
    expect(await new GoneItems(faulted.server, sightings).after(answerOf(404, url), 'b')).toBeNull();
  });

  it('asks a third time when an edit lands between the two asks, and takes the version the last two agree on', async () => {
    // CI, a random valid server: it removed the item, then edited again after a /version poll.
    const sightings = new ItemSightings();
    sightings.add(view('v1', ['b']));
    const versions = ['v2', 'v3', 'v3'];
    const { server, polls } = serverSaying(() => versions[polls.count - 1]!);
    const gone = await new GoneItems(server, sightings).after(answerOf(404, url), 'b');
    expect(gone).toMatchObject({ itemId: 'b', seenIn: 'v1', now: 'v3' });
    expect(gone?.movedFrom).toBeDefined();
    expect(polls.count).toBe(3);
  });

  it('takes a newer window for the edit when /version still names the old version (a cache that lags)', async () => {
    const sightings = new ItemSightings();
    sightings.add(view('v1', ['b']));
    sightings.add(view('v2', ['c']));
    const { server } = serverSaying(() => 'v1');
    expect(await new GoneItems(server, sightings).after(answerOf(404, url), 'b')).toMatchObject({
      seenIn: 'v1',
      now: 'v2',
    });
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
