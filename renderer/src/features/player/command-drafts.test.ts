import { describe, expect, it } from 'vitest';
import { OFFER_WAITS_MS, useCommandDrafts } from './command-drafts';

const offer = (playerId: string, at: number) => ({ playerId, queueName: 'Morning', queueBaseUrl: 'http://127.0.0.1:47103/queues/q/v2.3/', httpAuthorization: 'Bearer t', at });

describe('a load offered from the Queues area', () => {
  it("becomes its player's loadCloudQueue draft, once, keeping playOnCompletion and dropping the old item and answer", () => {
    const drafts = useCommandDrafts.getState();
    drafts.patch('p1', { command: 'skipToItem', fields: { queueBaseUrl: 'old', httpAuthorization: 'old', itemId: 'item-9', positionMillis: '5', playOnCompletion: false }, error: 'earlier' });
    drafts.offerLoad(offer('p1', 1_000));
    // Another player's command bar leaves it alone.
    expect(useCommandDrafts.getState().takeOffer('p2', 1_100)).toBeNull();
    expect(useCommandDrafts.getState().takeOffer('p1', 1_200)).toMatchObject({ queueName: 'Morning' });
    expect(useCommandDrafts.getState().takeOffer('p1', 1_300)).toBeNull();
    const { byPlayer, offered } = useCommandDrafts.getState();
    expect(offered).toBeNull();
    expect(byPlayer.p1).toEqual({
      command: 'loadCloudQueue',
      fields: { queueBaseUrl: 'http://127.0.0.1:47103/queues/q/v2.3/', httpAuthorization: 'Bearer t', itemId: '', positionMillis: '', playOnCompletion: false },
      answer: null,
      error: null,
      handedOver: 'Morning',
    });
    expect(byPlayer.p2).toBeUndefined();
  });

  it('is not kept for whenever its player next shows: a stale offer goes unused', () => {
    useCommandDrafts.getState().offerLoad(offer('p3', 0));
    expect(useCommandDrafts.getState().takeOffer('p3', OFFER_WAITS_MS + 1)).toBeNull();
    expect(useCommandDrafts.getState().offered).toBeNull();
    expect(useCommandDrafts.getState().byPlayer.p3).toBeUndefined();
  });
});
