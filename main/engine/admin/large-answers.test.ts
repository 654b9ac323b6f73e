/**
 * Answers that may run to megabytes are made LARGE_ANSWERS_AT_ONCE at a time, the others waiting
 * their turn in the order they came, and past LARGE_ANSWERS_WAITING refused 503 (outsider: forty
 * `GET /traffic?limit=5000` at once held 1.5 GB and stalled every listener 1.9 s).
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { CommandResult } from '../api/bridge.js';
import type { CommandName } from '../api/commands.js';
import type { CommandRunner } from '../api/runner.js';
import type { EventStreams } from './sse.js';
import { ADMIN_PREFIX, adminRoutes } from './routes.js';
import {
  LARGE_ANSWER_RETRY_AFTER_S,
  LARGE_ANSWERS_AT_ONCE,
  LARGE_ANSWERS_WAITING,
  LargeAnswers,
} from './large-answers.js';

const never = new Promise<void>(() => undefined);
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('LargeAnswers', () => {
  it('gives turns up to its number at once, then in the order asked, each handed on as one ends', async () => {
    const answers = new LargeAnswers(2, 10);
    const order: number[] = [];
    const ends = await Promise.all([answers.turn(never), answers.turn(never)]);
    const waiting = [3, 4, 5].map((n) => answers.turn(never).then((end) => (order.push(n), end)));
    await settled();
    expect(answers.load).toEqual({ making: 2, waiting: 3 });
    (ends[0] as () => void)();
    // Ended twice, it hands on one turn.
    (ends[0] as () => void)();
    await settled();
    expect(order).toEqual([3]);
    // One that comes now waits behind those before it, though a turn was just handed on.
    const late = answers.turn(never).then((end) => (order.push(6), end));
    (ends[1] as () => void)();
    await settled();
    expect(order).toEqual([3, 4]);
    for (const turn of [...waiting, late]) ((await turn) as () => void)();
    expect(order).toEqual([3, 4, 5, 6]);
    expect(answers.load).toEqual({ making: 0, waiting: 0 });
  });

  it('refuses one more than may wait, and a caller gone gives up its place', async () => {
    const answers = new LargeAnswers(1, 2);
    const first = (await answers.turn(never)) as () => void;
    let leave!: () => void;
    const gone = new Promise<void>((resolve) => (leave = resolve));
    const leaving = answers.turn(gone);
    const staying = answers.turn(never);
    const refused = await answers.turn(never);
    expect(refused).toBeInstanceOf(Error);
    expect(refused).toMatchObject({ statusCode: 503, retryAfter: LARGE_ANSWER_RETRY_AFTER_S });
    expect((refused as Error).message).toBe('1 large answers are being made and 2 more wait: try again in 2 s');
    leave();
    expect(typeof (await leaving)).toBe('function');
    expect(answers.load).toEqual({ making: 1, waiting: 1 });
    first();
    ((await staying) as () => void)();
    expect(answers.load).toEqual({ making: 0, waiting: 0 });
  });
});

/** The admin routes over a runner whose `traffic.list` answers when the test says. */
async function routesOver(): Promise<{
  app: ReturnType<typeof Fastify>;
  started: (() => void)[];
  calls: { name: string; at: number }[];
  /** What each answer was sent as: bytes, or a string or an object (fastify's own). */
  payloads: { url: string; bytes: boolean }[];
}> {
  const started: (() => void)[] = [];
  const calls: { name: string; at: number }[] = [];
  const payloads: { url: string; bytes: boolean }[] = [];
  const commands = {
    call: async (name: unknown): Promise<CommandResult<CommandName>> => {
      calls.push({ name: String(name), at: started.length });
      if (name !== 'traffic.list') return { ok: true, value: {} } as CommandResult<CommandName>;
      await new Promise<void>((resolve) => started.push(resolve));
      return { ok: true, value: [{ id: 1 }] } as CommandResult<CommandName>;
    },
  } as CommandRunner;
  const app = Fastify();
  app.addHook('onSend', async (request, _reply, payload) => {
    payloads.push({ url: request.url, bytes: Buffer.isBuffer(payload) });
    return payload;
  });
  await app.register(adminRoutes, {
    commands,
    streams: {} as EventStreams,
    adminToken: 'token',
    consolePort: () => 80,
    prefix: ADMIN_PREFIX,
  });
  return { app, started, calls, payloads };
}

const get = (app: ReturnType<typeof Fastify>, url: string) =>
  app.inject({ method: 'GET', url: `${ADMIN_PREFIX}${url}`, headers: { authorization: 'Bearer token' } });

describe('the admin API’s large answers', () => {
  it(`are made ${LARGE_ANSWERS_AT_ONCE} at a time; a small call does not wait for them`, async () => {
    const { app, started, payloads } = await routesOver();
    try {
      const reads = Array.from({ length: LARGE_ANSWERS_AT_ONCE + 2 }, () => get(app, '/traffic?limit=5000'));
      await expect.poll(() => started.length).toBe(LARGE_ANSWERS_AT_ONCE);
      // And no more, however long they wait.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(started).toHaveLength(LARGE_ANSWERS_AT_ONCE);
      expect((await get(app, '/clock')).statusCode).toBe(200);
      // One made: the next begins.
      started[0]!();
      await expect.poll(() => started.length).toBe(LARGE_ANSWERS_AT_ONCE + 1);
      for (let at = 1; at < LARGE_ANSWERS_AT_ONCE + 2; at++) {
        while (started.length <= at) await new Promise((resolve) => setTimeout(resolve, 10));
        started[at]!();
      }
      for (const read of await Promise.all(reads)) expect([read.statusCode, read.json()]).toEqual([200, [{ id: 1 }]]);
      // As bytes: a string its client has not taken stays in the JS heap, and the heap grows with
      // it (verify: forty read 3 s late took 1.67 GB, 459 MB as bytes).
      expect(payloads.filter(({ url }) => url.includes('/traffic')).map(({ bytes }) => bytes)).toEqual(
        reads.map(() => true),
      );
    } finally {
      await app.close();
    }
  });

  it(`past ${LARGE_ANSWERS_WAITING} waiting, one more is answered 503 with Retry-After`, async () => {
    const { app, started } = await routesOver();
    try {
      const reads = Array.from({ length: LARGE_ANSWERS_AT_ONCE + LARGE_ANSWERS_WAITING }, () => get(app, '/traffic'));
      await expect.poll(() => started.length).toBe(LARGE_ANSWERS_AT_ONCE);
      // Every other one has reached its place in line.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const refused = await get(app, '/traffic');
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe(String(LARGE_ANSWER_RETRY_AFTER_S));
      expect(refused.json()).toEqual({
        error: {
          code: 'unavailable',
          message: `${LARGE_ANSWERS_AT_ONCE} large answers are being made and ${LARGE_ANSWERS_WAITING} more wait: try again in ${LARGE_ANSWER_RETRY_AFTER_S} s`,
        },
      });
      while (started.length < reads.length) {
        started.forEach((resolve) => resolve());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      started.forEach((resolve) => resolve());
      expect((await Promise.all(reads)).every((read) => read.statusCode === 200)).toBe(true);
    } finally {
      await app.close();
    }
  });
});
