/** The UI's preferences live in the data dir: a restart (on another port, as `--port 0` gives) finds them. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { tempDirs } from '../testing/temp-dirs.js';

const dataDirs = tempDirs('cqc-preferences-');
const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});

describe('preferences', () => {
  it('start empty, merge what is sent, and survive a restart on the same data dir', async () => {
    const dir = dataDirs();
    const first = await startTestEngine({ dataDir: dir });
    expect((await admin(first, 'GET', '/preferences')).body).toEqual({});
    await admin(first, 'PATCH', '/preferences', { theme: 'dark' });
    const both = await admin(first, 'PATCH', '/preferences', { demoDismissed: true });
    expect(both.body).toEqual({ theme: 'dark', demoDismissed: true });
    await first.close();

    const again = await startTestEngine({ dataDir: dir });
    engines.push(again);
    expect((await admin(again, 'GET', '/preferences')).body).toEqual({ theme: 'dark', demoDismissed: true });
  });

  it('refuses what is no preference, keeping what was there', async () => {
    const engine = await startTestEngine();
    engines.push(engine);
    await admin(engine, 'PATCH', '/preferences', { theme: 'light' });
    for (const body of [{ theme: 'purple' }, { demoDismissed: 'yes' }, { fontSize: 20 }]) {
      const refused = await admin(engine, 'PATCH', '/preferences', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin(engine, 'GET', '/preferences')).body).toEqual({ theme: 'light' });
  });
});
