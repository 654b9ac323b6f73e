import { describe, expect, it } from 'vitest';
import { exportFileName, parseQueueFile, toQueueFile } from './transfer';

describe('queue files', () => {
  it('refuses a file that is not JSON, saying so with the file name', () => {
    expect(parseQueueFile('mine.json', '{"items": [')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^mine\.json is not JSON/),
    });
  });

  it('calls a binary file one, without echoing its bytes (audit-ui W14)', () => {
    const result = parseQueueFile('photo.png', '\ufffdPNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR');
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('binary file') });
    expect(result.ok ? '' : result.message).not.toMatch(/[\p{Cc}\ufffd]/u);
  });

  it('refuses JSON that is not a queue', () => {
    expect(parseQueueFile('a.json', '[1, 2]')).toMatchObject({
      ok: false,
      message: expect.stringContaining('"items"'),
    });
    expect(parseQueueFile('a.json', '{"name": "x"}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('no "items"'),
    });
  });

  it('reads a queue file', () => {
    expect(parseQueueFile('a.json', '{"name":"x","items":[{"track":{"name":"a"}}]}')).toEqual({
      ok: true,
      file: { name: 'x', items: [{ track: { name: 'a' } }] },
    });
  });

  it('exports the body POST /queues takes, items with their ids', () => {
    const file = toQueueFile({
      id: 'queue-1',
      name: 'Road trip',
      queueVersion: '3',
      contextVersion: '1',
      itemCount: 1,
      createdAt: 0,
      queueBaseUrl: 'http://x/',
      accessToken: 't',
      accessTokenExpiresAt: 0,
      httpAuthorization: 'Bearer t',
      container: {
        name: 'Road trip',
        type: 'playlist',
        id: { serviceId: 's', objectId: 'queue-1', accountId: 'a' },
        imageUrl: 'https://art/q.jpg',
      },
      playbackPolicies: { canSkip: true } as never,
      reports: { sendUpdateAfterMillis: 1, periodicIntervalMillis: 2, sendPlaybackActions: true },
      items: [{ id: 'item-1', track: { name: 'a' } }],
    });
    expect(file).toEqual({
      name: 'Road trip',
      container: { type: 'playlist', imageUrl: 'https://art/q.jpg' },
      playbackPolicies: { canSkip: true },
      reports: { sendUpdateAfterMillis: 1, periodicIntervalMillis: 2, sendPlaybackActions: true },
      items: [{ id: 'item-1', track: { name: 'a' } }],
    });
    expect(exportFileName('Road trip / 2')).toBe('Road-trip-2.queue.json');
  });
});
