/** A base URL the console's own server gave, once its queue is deleted, is not "another server's" (audit). */
import { describe, expect, it } from 'vitest';
import { isOwnQueueUrl } from './PlayerReports';

describe('isOwnQueueUrl', () => {
  const own = 'http://127.0.0.1:47103';
  it.each([
    [`${own}/queues/q-1/v2.3/`, true],
    [`${own}/queues/gone/v2.0/`, true],
    ['http://127.0.0.1:9000/queues/q-1/v2.3/', false],
    ['https://cloudqueue.example.com/queues/q-1/v2.3/', false],
    [`${own}/elsewhere/`, false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isOwnQueueUrl(url, own)).toBe(expected);
  });
});
