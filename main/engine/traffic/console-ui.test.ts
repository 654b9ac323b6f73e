/**
 * The attack on the traffic log's one exemption (docs/contract/console.md §9): a script that marks
 * its admin calls `X-Console-UI: 1` is logged like any caller. Only a call that also carries the
 * key the console gave its own page is left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

const call = (headers: Record<string, string>) =>
  fetch(`${engine.urls.console}/admin/api/commands/clock.get`, {
    method: 'POST',
    headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json', ...headers },
    body: '{}',
  });

describe('the console UI’s calls', () => {
  it('are left out only with the key its page came with: the header alone, or a wrong key, is logged', async () => {
    await admin(engine, 'DELETE', '/traffic');
    // The page (here the "not built" one: the key comes with whichever the console serves).
    const page = await fetch(`${engine.urls.console}/`);
    const [cookie] = page.headers.getSetCookie();
    expect(cookie).toMatch(/^cqc-ui-\d+=[\w-]+; Path=\/admin\/api; HttpOnly; SameSite=Strict$/);
    const key = cookie!.split(';')[0]!;

    expect((await call({ 'x-console-ui': '1', cookie: key })).status).toBe(200);
    expect((await call({ 'x-console-ui': '1', 'x-request-id': 'scripted' })).status).toBe(200);
    expect(
      (await call({ 'x-console-ui': '1', cookie: `${key.split('=')[0]}=forged`, 'x-request-id': 'forged' })).status,
    ).toBe(200);
    // The key without the header is a page's other request (a link opened in it), logged too.
    expect((await call({ cookie: key, 'x-request-id': 'no-header' })).status).toBe(200);

    const logged = (await admin(engine, 'GET', '/traffic?target=console')).body as TrafficEntry[];
    expect(logged.map((e) => e.requestId)).toEqual(['scripted', 'forged', 'no-header']);
  });

  it('count for this start only: a key from an earlier start is a wrong key', async () => {
    const other = await startTestEngine();
    try {
      const stale = (await fetch(`${other.urls.console}/`)).headers.getSetCookie()[0]!.split(';')[0]!.split('=')[1];
      await admin(engine, 'DELETE', '/traffic');
      const name = (await fetch(`${engine.urls.console}/`)).headers.getSetCookie()[0]!.split('=')[0];
      await call({ 'x-console-ui': '1', cookie: `${name}=${stale}`, 'x-request-id': 'stale' });
      expect(
        ((await admin(engine, 'GET', '/traffic?target=console')).body as TrafficEntry[]).map((e) => e.requestId),
      ).toEqual(['stale']);
    } finally {
      await other.close();
    }
  });
});
