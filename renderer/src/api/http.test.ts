/**
 * The browser transport against a real engine: the same calls and events the IPC bridge carries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../main/engine/index.js';
import { startTestEngine } from '../../../main/engine/testing/http.js';
import { Api, ApiError } from './client';
import { httpTransport } from './http';

let engine: Engine;
let api: Api;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  // As in a browser: the page the console serves hands out its UI key as a cookie, which the
  // browser then sends with every admin call (main/engine/traffic/console-ui.ts).
  const cookie = (await fetch(`${engine.urls.console}/`)).headers.getSetCookie()[0]!.split(';')[0]!;
  api = new Api(
    httpTransport({
      baseUrl: engine.urls.console,
      adminToken: engine.adminToken,
      fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), cookie } }),
    }),
  );
});
afterAll(() => engine.close());

describe('HTTP transport', () => {
  it('runs commands and returns their typed output', async () => {
    const clock = await api.call('clock.get', {});
    expect(clock.speed).toBe(0);
    const state = await api.call('state.get', {});
    expect(state.urls).toEqual(engine.urls);
  });

  it('turns engine errors into ApiError with their code', async () => {
    const error = await api.call('players.get', { id: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'not_found' });
  });

  it('leaves its own calls out of the traffic log, where a scripted call of the same command is', async () => {
    await api.call('clock.get', {});
    await api.call('state.get', {});
    await fetch(`${engine.urls.console}/admin/api/commands/state.get`, {
      method: 'POST',
      headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const logged = await engine.commands.run('traffic.list', { target: 'console' });
    expect(logged.map((e) => e.path)).toEqual(['/admin/api/commands/state.get']);
  });

  it('reports a wrong token as an error, not as data', async () => {
    const stranger = new Api(httpTransport({ baseUrl: engine.urls.console, adminToken: 'wrong' }));
    await expect(stranger.call('clock.get', {})).rejects.toBeInstanceOf(ApiError);
  });

  it('reports an unreachable engine as unavailable', async () => {
    const lost = new Api(httpTransport({ baseUrl: 'http://127.0.0.1:9', adminToken: 'x' }));
    await expect(lost.call('clock.get', {})).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('says the console was started again when the event stream refuses its key, and stops asking (audit)', async () => {
    // A console started again hands out a new key; the stream then answers 401 for as long as it is asked.
    let asked = 0;
    const stranger = new Api(
      httpTransport({
        baseUrl: engine.urls.console,
        adminToken: 'the key of a console that stopped',
        fetch: (url, init) => {
          asked++;
          return fetch(url, init);
        },
      }),
    );
    const states: string[] = [];
    const offConnection = stranger.onConnection((state) => states.push(state));
    const off = stranger.on('clock.changed', () => undefined);
    await expect.poll(() => states.at(-1)).toBe('restarted');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(states).not.toContain('reconnecting');
    expect(asked).toBe(1);
    off();
    offConnection();
  });

  it('delivers pushed events and says when the stream is open', async () => {
    const states: string[] = [];
    const offConnection = api.onConnection((state) => states.push(state));
    const received = new Promise<unknown>((resolve) => {
      const off = api.on('clock.changed', (clock) => {
        off();
        resolve(clock);
      });
    });
    await expect.poll(() => states.includes('open')).toBe(true);
    const after = await api.call('clock.set', { advanceMs: 60_000 });
    expect(await received).toEqual(after);
    offConnection();
  });

  it('takes traffic.appended as its cue, so the engine decodes no traffic.captured summaries for it', async () => {
    const appended = new Promise<{ count: number }>((resolve) => {
      const off = api.on('traffic.appended', (batch) => {
        off();
        resolve(batch);
      });
    });
    await expect.poll(() => engine.events.wants('traffic.appended')).toBe(true);
    expect(engine.events.wants('traffic.captured')).toBe(false);
    // A scripted call (no UI header) is captured.
    await fetch(`${engine.urls.console}/admin/api/clock`, {
      headers: { authorization: `Bearer ${engine.adminToken}` },
    });
    expect((await appended).count).toBeGreaterThan(0);
  });
});
