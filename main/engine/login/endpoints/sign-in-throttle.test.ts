import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntegration } from '../../api/oauth-types.js';
import type { Engine } from '../../index.js';
import { admin, startTestEngine } from '../../testing/http.js';
import {
  FormBrowser,
  authorizeParams,
  authorizeUrl,
  createTestIntegration,
  type PageResponse,
} from '../../testing/oauth.js';
import { FIRST_LOCK_MS } from './sign-in-throttle.js';

let engine: Engine;
let client: CreatedIntegration;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  client = await createTestIntegration(engine, { name: 'Guessing app' });
});
afterAll(() => engine.close());

const LOCKED = /Too many failed sign-ins for this user: try again in (\d+) s/;

/** One sign-in attempt through a fresh authorization request, as a guesser would script it. */
async function attempt(username: string, password: string, forClient = client): Promise<PageResponse> {
  const browser = new FormBrowser();
  const signIn = await browser.get(authorizeUrl(engine, authorizeParams(forClient)));
  expect(signIn.status).toBe(200);
  return browser.submit(signIn, engine.urls.login, { username, password });
}

const advance = (ms: number) => admin(engine, 'POST', '/clock', { advanceMs: ms });

describe('failed sign-ins throttled per user (docs/contract/console.md §2, §9)', () => {
  it('refuses 60 guessed passwords across fresh authorize requests after the fifth, the right one too, until the delay ends', async () => {
    const answers: PageResponse[] = [];
    for (let i = 0; i < 60; i++) answers.push(await attempt('demo', `guess-${i}`));
    // Four wrong answers, then the fifth failure locks the user: each later one is refused unchecked.
    expect(answers.slice(0, 4).map((a) => [a.status, a.html.includes('Wrong username or password.')])).toEqual(
      Array(4).fill([200, true]),
    );
    for (const refused of answers.slice(4)) {
      expect(refused.status).toBe(429);
      expect(refused.html).toMatch(LOCKED);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(LOCKED.exec(answers[4]!.html)![1]).toBe(String(FIRST_LOCK_MS / 1000));

    // The guesser who finally types the right password still gets nothing while the lock holds.
    const right = await attempt('demo', 'demo');
    expect(right.status).toBe(429);
    expect(right.location).toBeNull();

    // The delay runs on the engine clock; after it the demo user signs in.
    await advance(FIRST_LOCK_MS);
    const after = await attempt('demo', 'demo');
    expect(after.status).toBe(303);
  });

  it('doubles the delay for each failure after a lock, and a successful sign-in starts the count again', async () => {
    for (let i = 0; i < 5; i++) await attempt('demo', 'wrong');
    await advance(FIRST_LOCK_MS);
    const again = await attempt('demo', 'wrong');
    expect(again.status).toBe(429);
    expect(LOCKED.exec(again.html)![1]).toBe(String((2 * FIRST_LOCK_MS) / 1000));
    await advance(FIRST_LOCK_MS);
    expect(LOCKED.exec((await attempt('demo', 'demo')).html)![1]).toBe(String(FIRST_LOCK_MS / 1000));
    await advance(FIRST_LOCK_MS);
    expect((await attempt('demo', 'demo')).status).toBe(303);
    // Counted from zero again: one wrong password is just a wrong password.
    const wrong = await attempt('demo', 'wrong');
    expect([wrong.status, wrong.html.includes('Wrong username or password.')]).toEqual([200, true]);
    expect((await attempt('demo', 'demo')).status).toBe(303);
  });

  it('locks the username guessed at, not the others, and an unknown name alike', async () => {
    for (let i = 0; i < 5; i++) await attempt('nobody', `guess-${i}`);
    expect((await attempt('nobody', 'guess')).html).toMatch(LOCKED);
    expect((await attempt('demo', 'demo')).status).toBe(303);
  });

  it('records a refused attempt on the flow and still ends the sign-in after five failures', async () => {
    for (let i = 0; i < 5; i++) await attempt('intruder', `guess-${i}`);
    const browser = new FormBrowser();
    let page = await browser.get(authorizeUrl(engine, authorizeParams(client)));
    for (let i = 0; i < 4; i++)
      page = await browser.submit(page, engine.urls.login, { username: 'intruder', password: 'x' });
    expect(page.status).toBe(429);
    const last = await browser.submit(page, engine.urls.login, { username: 'intruder', password: 'x' });
    expect(last.status).toBe(302);
    expect(new URL(last.location!).searchParams.get('error')).toBe('access_denied');
    const [newest] = (await admin(engine, 'GET', '/oauth/flows')).body as { id: string }[];
    const flow = (await admin(engine, 'GET', `/oauth/flows/${newest!.id}`)).body as {
      steps: { kind: string; detail: { reason?: string } }[];
    };
    expect(flow.steps.filter((s) => s.kind === 'login').map((s) => s.detail.reason)).toEqual(
      Array(5).fill(expect.stringMatching(/too many failed sign-ins/)),
    );
  });
});

describe('pending sign-ins capped per client (docs/contract/console.md §9)', () => {
  it("1,000 authorize requests of one client leave another client's pending sign-in usable", async () => {
    const other = await createTestIntegration(engine, { name: 'Patient app' });
    const patient = new FormBrowser();
    const waiting = await patient.get(authorizeUrl(engine, authorizeParams(other)));
    expect(waiting.status).toBe(200);

    const flooder = new FormBrowser();
    const first = await flooder.get(authorizeUrl(engine, authorizeParams(client)));
    const url = authorizeUrl(engine, authorizeParams(client));
    for (let batch = 0; batch < 40; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => fetch(url, { redirect: 'manual' }).then((r) => r.status)),
      );
      expect(answers.every((status) => status === 200)).toBe(true);
    }

    expect((await patient.submit(waiting, engine.urls.login, { username: 'demo', password: 'demo' })).status).toBe(303);
    // The flooding client lost its own oldest sign-in, and only its own.
    const evicted = await flooder.submit(first, engine.urls.login, { username: 'demo', password: 'demo' });
    expect(evicted.status).toBe(400);
    expect(evicted.html).toMatch(/unknown or already finished/);
  });
});
