/**
 * A check against one of the console's own queues leaves that queue's reports as they were: the
 * suite's timePlayed reports (its two report cases and its play-through) are answered 204 and
 * not kept, while a player's report before the check is still there, alone, after it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { QueueSummary } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { startTestEngine } from '../testing/http.js';
import { checkServer, outcomes } from './testing/check.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

it('a check of one of the console’s queues leaves its reports as they were', async () => {
  const queue: QueueSummary = await engine.commands.run('queues.create', {
    name: 'Checked and played',
    items: Array.from({ length: 5 }, (_, i) => ({
      track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example/${i + 1}.mp3`, durationMillis: 200_000 },
    })),
  });
  const { items, queueVersion } = await engine.commands.run('queues.get', { id: queue.id });
  const first = items[0]!;
  // A player's report, before the check.
  const posted = await fetch(`${queue.queueBaseUrl}timePlayed`, {
    method: 'POST',
    headers: { authorization: queue.httpAuthorization, 'content-type': 'application/json', 'x-player-id': 'kitchen' },
    body: JSON.stringify({
      items: [
        {
          id: first.id,
          mediaUrl: first.track.mediaUrl,
          queueVersion,
          durationPlayedMillis: 30_000,
          timeSincePlaybackMillis: 0,
          positionMillis: 30_000,
          positionMillisAtSegmentStart: 0,
          type: 'update',
        },
      ],
    }),
  });
  expect(posted.status).toBe(204);
  const before = await engine.commands.run('queues.reports', { id: queue.id });
  expect(before.map((report) => report.playerId)).toEqual(['kitchen']);

  const { run } = await checkServer(engine, queue.queueBaseUrl, queue.httpAuthorization);
  // The cases that send reports ran and passed: the server answered them as it answers any.
  expect(outcomes(run)).toMatchObject({
    'time-played.update': 'pass',
    'time-played.final': 'pass',
    'play-through': 'pass',
  });
  expect(await engine.commands.run('queues.reports', { id: queue.id })).toEqual(before);
});
