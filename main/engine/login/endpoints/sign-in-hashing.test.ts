/**
 * The attack: many sign-ins at once, each with a fresh username, so the per-user throttle never
 * locks and every attempt costs a full scrypt. The other listeners must keep answering, and the
 * checks wait their turn instead of piling up without end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntegration } from '../../api/oauth-types.js';
import type { Engine } from '../../index.js';
import {
  CONCURRENT_CHECKS,
  PasswordChecker,
  PasswordChecksBusy,
  WAITING_CHECKS,
  hashPassword,
} from '../../security/passwords.js';
import { startTestEngine } from '../../testing/http.js';
import { FormBrowser, authorizeParams, authorizeUrl, createTestIntegration } from '../../testing/oauth.js';

let engine: Engine;
let client: CreatedIntegration;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  client = await createTestIntegration(engine, { name: 'Flooding app' });
});
afterAll(() => engine.close());

describe('password checks', () => {
  it('run off the engine thread: 24 sign-ins with fresh usernames hold no listener up', async () => {
    const pages = await Promise.all(
      Array.from({ length: 24 }, async () => {
        const browser = new FormBrowser();
        const page = await browser.get(authorizeUrl(engine, authorizeParams(client)));
        return { browser, page };
      }),
    );
    const attempts = pages.map(({ browser, page }, index) =>
      browser.submit(page, engine.urls.login, { username: `made-up-${index}`, password: 'guess' }),
    );
    const latencies: number[] = [];
    let done = false;
    const all = Promise.all(attempts).finally(() => (done = true));
    while (!done) {
      const started = performance.now();
      await fetch(`${engine.urls.control}/api/v1/households`);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const answers = await all;
    expect(answers.every((answer) => answer.html.includes('Wrong username or password.'))).toBe(true);
    expect(latencies.length).toBeGreaterThan(3);
    // The first ping opens its connection while this process sends the 24 forms.
    expect(Math.max(...latencies.slice(1))).toBeLessThan(250);
  });

  it(`run ${CONCURRENT_CHECKS} at a time, and refuse as busy past ${WAITING_CHECKS} waiting`, async () => {
    const checker = new PasswordChecker();
    const stored = hashPassword('right');
    const checks = Array.from({ length: CONCURRENT_CHECKS + WAITING_CHECKS + 3 }, () =>
      checker.verify('wrong', stored).then(
        (ok) => ok,
        (error: unknown) => error,
      ),
    );
    const outcomes = await Promise.all(checks);
    expect(outcomes.filter((outcome) => outcome === false)).toHaveLength(CONCURRENT_CHECKS + WAITING_CHECKS);
    expect(outcomes.filter((outcome) => outcome instanceof PasswordChecksBusy)).toHaveLength(3);
    expect(await checker.verify('right', stored)).toBe(true);
  });
});
