/**
 * The run-long tallies (trail.ts) stay bounded whatever the server sends: a new and long
 * queueVersion in every window of a long play is counted, its first changes kept (review: one
 * entry a version held 131 M characters after 2,000 windows).
 */
import { expect, it } from 'vitest';
import type { Answer } from './server.js';
import { EndsTrail, VersionTrail } from './trail.js';
import type { WindowView } from './window-view.js';

const answer = () => ({ text: '', exchange: { requestHeaders: {} } }) as unknown as Answer;

it('counts every change of a version that moves in each window, keeping the first few', () => {
  const trail = new VersionTrail();
  trail.watch('v1');
  const pad = 'x'.repeat(64 * 1024);
  for (let i = 0; i < 2_000; i++)
    trail.window({ answer: answer(), items: [], queueVersion: `${i}${pad}` } as unknown as WindowView);
  expect(trail.windows).toBe(2_000);
  expect(trail.changed).toBe(2_000);
  expect(trail.changes.length).toBeLessThanOrEqual(5);
  expect(trail.changes[0]).toMatchObject({ from: 'v1', to: `0${pad}` });
});

it('pairs a poll that announced another version with the window after it', () => {
  const trail = new VersionTrail();
  trail.watch('v1');
  // A 200, as the run hands the tally only answers that came.
  const poll = (said: string) => ({ ...answer(), status: 200, json: { queueVersion: said } }) as unknown as Answer;
  const window = (version: string) => ({ answer: answer(), items: [], queueVersion: version }) as unknown as WindowView;
  // Announced and carried: an edit, no disagreement.
  trail.poll(poll('v2'));
  trail.window(window('v2'));
  // Announced, and the window after still carries the one before: twice.
  trail.poll(poll('v3'));
  trail.window(window('v2'));
  trail.poll(poll('v3'));
  trail.window(window('v2'));
  // The same version polled: nothing announced.
  trail.poll(poll('v2'));
  trail.window(window('v2'));
  expect(trail.disagreed).toBe(2);
  expect(trail.disagreements.map((d) => [d.said, d.carried])).toEqual([
    ['v3', 'v2'],
    ['v3', 'v2'],
  ]);
  expect(trail.changed).toBe(1);
});

it('judges a window that holds nothing after its item yet says the queue goes on, of any version, before the walk has ended', () => {
  const trail = new EndsTrail();
  const window = (query: string, ids: string[], end: unknown, by = 'play-through') =>
    ({
      answer: {
        text: '',
        exchange: { url: `http://server.example/q/itemWindow?${query}`, requestHeaders: { 'x-conformance-case': by } },
      },
      items: ids.map((id) => ({ id })),
      ids,
      includesBeginningOfQueue: false,
      includesEndOfQueue: end,
      queueVersion: 'v-after-an-edit',
    }) as unknown as WindowView;
  // Asked for what comes after c, got nothing after it, told the queue goes on: wrong, whatever the version.
  trail.add(window('reason=refresh&previousWindowSize=2&upcomingWindowSize=10&itemId=c', ['a', 'b', 'c'], false));
  // Not wrong: nothing after c asked, the queue's end said, an item other than the one asked last,
  // and the windows of the cases that judge their own.
  trail.add(window('reason=refresh&previousWindowSize=2&upcomingWindowSize=0&itemId=c', ['a', 'b', 'c'], false));
  trail.add(window('reason=refresh&previousWindowSize=2&upcomingWindowSize=10&itemId=c', ['a', 'b', 'c'], true));
  trail.add(window('reason=refresh&previousWindowSize=2&upcomingWindowSize=10&itemId=b', ['a', 'b', 'c'], false));
  trail.add(
    window('reason=skipNext&previousWindowSize=2&upcomingWindowSize=10&itemId=c', ['c'], false, 'item-window.reasons'),
  );
  expect(trail.found).toBe(1);
  expect(trail.problems[0]!.message).toMatch(
    /^nothing after c, yet includesEndOfQueue false: if c is the queue's last item/,
  );
});
