/**
 * What the traffic log shows without "reveal" holds no secret the console knows, in memory as on
 * disk (docs/contract/console.md §9). A revealed answer is captured like any other: a bundle
 * exported with `reveal` carries the admin token in its HAR's header values, where capture finds
 * it by value only. Reads put back what capture masked only when they reveal; the listing, the
 * entry and a HAR made without reveal showed the token in clear while the entry was held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

let engine: Engine;
let exported: TrafficEntry;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  await admin(engine, 'GET', '/state');
  expect((await admin(engine, 'POST', '/bundles/export', { reveal: true })).status).toBe(200);
  const listed = (await admin(engine, 'GET', '/traffic?target=console&limit=5000')).body as TrafficEntry[];
  exported = listed.find((entry) => entry.path === '/admin/api/bundles/export')!;
});
afterAll(() => engine.close());

describe('a revealed answer, read back without reveal', () => {
  it('is masked in the listing and the entry', async () => {
    expect(exported).toBeDefined();
    expect(exported.responseBody).toContain('•••');
    expect(JSON.stringify(exported)).not.toContain(engine.adminToken);
    const entry = (await admin(engine, 'GET', `/traffic/${exported.id}`)).body;
    expect(JSON.stringify(entry)).not.toContain(engine.adminToken);
  });

  it('is masked in a HAR made without reveal, and shown whole in one made with it', async () => {
    const plain = await admin(engine, 'POST', '/traffic/har', {});
    expect(JSON.stringify(plain.body)).not.toContain(engine.adminToken);
    const revealed = await admin(engine, 'POST', '/traffic/har', { reveal: true });
    expect(JSON.stringify(revealed.body)).toContain(engine.adminToken);
  });
});
