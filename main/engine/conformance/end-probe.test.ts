/**
 * The end the play-through's player stopped at, asked again past the walk (end-probe.ts): a flag
 * one item early shows whether it fooled the player or not, a right end passes, and a queue that
 * changed since is not judged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClock } from '../clock/clock.js';
import { CloudQueueClient } from '../player/client.js';
import { probeEnd } from './end-probe.js';
import { CheckedServer, type Answer } from './server.js';
import { startDefectiveServer, type DefectiveServer, type DefectiveServerOptions } from './testing/defective-server.js';

let server: DefectiveServer | null = null;
const clock = new EngineClock({ startAt: 0, speed: 0 });
afterEach(async () => {
  await server?.close();
  server = null;
});

async function checked(options: DefectiveServerOptions): Promise<CheckedServer> {
  server = await startDefectiveServer({ items: 10, ...options });
  const client = new CloudQueueClient({ playerId: 'end-probe-test', clock });
  return new CheckedServer(client, server.baseUrl, server.authorization, () => {});
}

describe('the end the player stopped at, asked again', () => {
  it('passes a right end: a window around it holds nothing after, and one item short says false', async () => {
    const probe = await probeEnd(await checked({}), 'item-10', 'v1', undefined);
    expect(probe).toMatchObject({ problems: [], notJudged: null });
    expect(probe.answers.map((answer) => answer.exchange.url)).toEqual([
      expect.stringMatching(/previousWindowSize=3&upcomingWindowSize=3&itemId=item-10$/),
      expect.stringMatching(/previousWindowSize=0&upcomingWindowSize=2&itemId=item-7$/),
    ]);
  });

  it('fails a flag one item early the player did not stop at: the window one short says true', async () => {
    const probe = await probeEnd(await checked({ endOneEarly: true }), 'item-10', 'v1', undefined);
    expect(probe.problems).toEqual([
      expect.stringMatching(
        /^GET \/itemWindow\?reason=refresh&previousWindowSize=0&upcomingWindowSize=2&itemId=item-7: includesEndOfQueue true, but the window stops at item-9, before the queue's last item item-10, where the player stopped$/,
      ),
    ]);
  });

  it('fails a flag one item early the player stopped at: an item follows it', async () => {
    const probe = await probeEnd(await checked({ endOneEarly: true }), 'item-9', 'v1', undefined);
    expect(probe.problems).toEqual([
      expect.stringMatching(/^the player stopped at the end of the queue at item-9, but item-10 follows it in GET /),
    ]);
  });

  it('does not judge an end said in a version before the one the player holds now (audit: an item appended once the last had played)', async () => {
    // The end was said at v0; since, the queue changed to v1 (the server's), where item-10 follows item-9.
    const said = {
      json: { queueVersion: 'v0', includesEndOfQueue: true },
      exchange: { method: 'GET', endpoint: 'itemWindow', url: 'http://x/itemWindow?reason=refresh&itemId=item-9' },
    } as unknown as Answer;
    const probe = await probeEnd(await checked({}), 'item-9', 'v1', said);
    expect(probe.problems).toEqual([]);
    expect(probe.notJudged).toMatch(
      /^the queue changed \(queueVersion "v0" → "v1"\) after GET \/itemWindow\?reason=refresh&itemId=item-9 said where it ends$/,
    );
    expect(probe.answers).toEqual([]);
  });

  it('fails a window that holds the last item and says includesEndOfQueue false', async () => {
    const probe = await probeEnd(await checked({ defects: ['endNeverTrue'] }), 'item-10', 'v1', undefined);
    expect(probe.problems).toEqual([
      expect.stringMatching(
        /: nothing after item-10, where the player stopped at the end of the queue, yet includesEndOfQueue false/,
      ),
    ]);
  });

  it('does not judge a queue whose version changed since the player stopped', async () => {
    const probe = await probeEnd(await checked({ endOneEarly: true }), 'item-9', 'v0', undefined);
    expect(probe.problems).toEqual([]);
    expect(probe.notJudged).toMatch(/queueVersion "v0" → "v1"/);
  });
});
