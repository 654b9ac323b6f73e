/** The players' saved records and the windows kept beside them (migrations 012 and 018). */
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store.js';

let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

const row = (record: unknown) => ({ groupId: 'group-kitchen', savedAt: 1, ownCloudQueue: null, record });
const windowCount = (s: Store) => s.db.prepare('SELECT count(*) FROM player_saved_windows').pluck().get();

describe('PlayerSavedRepository', () => {
  it('keeps the window as it is until it is given another one or none', () => {
    const { playerSaved } = (store = openStore({ dataDir: null }));
    playerSaved.save('p1', row({ n: 1 }), { items: ['a'] });
    playerSaved.save('p1', row({ n: 2 }));
    expect(playerSaved.get('p1')).toMatchObject({ record: { n: 2 }, window: { items: ['a'] } });
    playerSaved.save('p1', row({ n: 3 }), { items: ['b'] });
    expect(playerSaved.get('p1')).toMatchObject({ record: { n: 3 }, window: { items: ['b'] } });
    playerSaved.save('p1', row({ n: 4 }), null);
    expect(playerSaved.get('p1')).toMatchObject({ record: { n: 4 }, window: undefined });
    expect(windowCount(store)).toBe(0);
  });

  it('writes a record and its window together or not at all', () => {
    const { playerSaved } = (store = openStore({ dataDir: null }));
    playerSaved.save('p1', row({ n: 1 }), { items: ['a'] });
    // JSON.stringify throws on a BigInt: the window cannot be written, so neither is the record.
    expect(() => playerSaved.save('p1', row({ n: 2 }), { items: [1n] })).toThrow();
    expect(playerSaved.get('p1')).toMatchObject({ record: { n: 1 }, window: { items: ['a'] } });
  });

  it('deletes the window with the record', () => {
    const { playerSaved } = (store = openStore({ dataDir: null }));
    playerSaved.save('p1', row({ n: 1 }), { items: ['a'] });
    playerSaved.delete('p1');
    expect(playerSaved.get('p1')).toBeUndefined();
    expect(windowCount(store)).toBe(0);
  });

  it('reads a record or a window that is not JSON as nothing', () => {
    const { playerSaved, db } = (store = openStore({ dataDir: null }));
    playerSaved.save('p1', row({ n: 1 }), { items: ['a'] });
    db.prepare("UPDATE player_saved_windows SET window = '{' WHERE player_id = 'p1'").run();
    expect(playerSaved.get('p1')).toMatchObject({ record: { n: 1 }, window: undefined });
    db.prepare("UPDATE player_saved SET record = 'not json' WHERE player_id = 'p1'").run();
    expect(playerSaved.get('p1')).toMatchObject({ record: null });
  });
});
