/**
 * A queue handed over from the Queues area ("Prepare a load on…") to one player's command bar.
 * The Queues area offers it and the Player area takes it; it lives here so that neither feature
 * imports the other.
 */
import { create } from 'zustand';

export interface OfferedLoad {
  playerId: string;
  queueName: string;
  queueBaseUrl: string;
  httpAuthorization: string;
  /** performance.now() when offered. */
  at: number;
}

/**
 * How long an offer waits for its player's command bar. It shows at once unless something is
 * amiss (the player went, its detail does not load, the user left the area); an offer must not
 * overwrite that player's draft whenever it next shows.
 */
export const OFFER_WAITS_MS = 15_000;

interface LoadOffer {
  /** Waits for its player's command bar. */
  offered: OfferedLoad | null;
  offer(load: OfferedLoad): void;
  /** The load offered to `playerId`, taken (it is offered once), or null when none is, or it is stale. */
  take(playerId: string, now?: number): OfferedLoad | null;
}

export const useLoadOffer = create<LoadOffer>((set, get) => ({
  offered: null,
  offer: (load) => set({ offered: load }),
  take: (playerId, now = performance.now()) => {
    const { offered } = get();
    if (offered?.playerId !== playerId) return null;
    set({ offered: null });
    return now - offered.at > OFFER_WAITS_MS ? null : offered;
  },
}));
