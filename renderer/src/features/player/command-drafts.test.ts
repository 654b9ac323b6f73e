import { describe, expect, it } from 'vitest';
import { useCommandDrafts } from './command-drafts';

describe('a load offered from the Queues area', () => {
  it("becomes one player's loadCloudQueue draft, once, keeping its playOnCompletion and dropping the old item and answer", () => {
    const drafts = useCommandDrafts.getState();
    drafts.patch('p1', { command: 'skipToItem', fields: { queueBaseUrl: 'old', httpAuthorization: 'old', itemId: 'item-9', positionMillis: '5', playOnCompletion: false }, error: 'earlier' });
    drafts.offerLoad({ queueBaseUrl: 'http://127.0.0.1:47103/queues/q/v2.3/', httpAuthorization: 'Bearer t' });
    useCommandDrafts.getState().takeOffer('p1');
    useCommandDrafts.getState().takeOffer('p2');
    const { byPlayer, offered } = useCommandDrafts.getState();
    expect(offered).toBeNull();
    expect(byPlayer.p1).toEqual({
      command: 'loadCloudQueue',
      fields: { queueBaseUrl: 'http://127.0.0.1:47103/queues/q/v2.3/', httpAuthorization: 'Bearer t', itemId: '', positionMillis: '', playOnCompletion: false },
      answer: null,
      error: null,
    });
    expect(byPlayer.p2).toBeUndefined();
  });
});
