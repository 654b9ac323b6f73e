/**
 * What was typed in a player's command bar and the last answer it got, kept per player outside
 * the component, so that leaving the Player page and coming back loses neither.
 */
import { create } from 'zustand';
import type { ControlExchange } from '../../../../main/engine/api/commands/player';

export type Command = 'loadCloudQueue' | 'skipToItem' | 'refreshCloudQueue' | 'suspend';

export interface Fields {
  queueBaseUrl: string;
  httpAuthorization: string;
  itemId: string;
  positionMillis: string;
  playOnCompletion: boolean;
}

const EMPTY: Fields = { queueBaseUrl: '', httpAuthorization: '', itemId: '', positionMillis: '', playOnCompletion: true };

interface CommandDraft {
  command: Command;
  fields: Fields;
  /** The last answer, or why there was none. */
  answer: ControlExchange | null;
  error: string | null;
  /** The queue "Load on a player…" filled in, until the draft is sent. */
  handedOver: string | null;
}

export const NEW_DRAFT: CommandDraft = { command: 'loadCloudQueue', fields: EMPTY, answer: null, error: null, handedOver: null };

/** A queue handed over from the Queues area ("Load on a player…") to one player's command bar. */
export interface OfferedLoad extends Pick<Fields, 'queueBaseUrl' | 'httpAuthorization'> {
  playerId: string;
  queueName: string;
  /** performance.now() when offered. */
  at: number;
}

/**
 * How long an offer waits for its player's command bar. It shows at once unless something is
 * amiss (the player went, its detail does not load, the user left the area); an offer must not
 * overwrite that player's draft whenever it next shows.
 */
export const OFFER_WAITS_MS = 15_000;

interface CommandDrafts {
  byPlayer: Record<string, CommandDraft>;
  patch(playerId: string, change: Partial<CommandDraft>): void;
  /** Waits for its player's command bar, which makes it its loadCloudQueue draft. */
  offered: OfferedLoad | null;
  offerLoad(load: OfferedLoad): void;
  /** `playerId`'s command bar takes the load offered to it, if any and not stale (its other fields stay); answers it. */
  takeOffer(playerId: string, now?: number): OfferedLoad | null;
}

export const useCommandDrafts = create<CommandDrafts>((set, get) => ({
  byPlayer: {},
  patch: (playerId, change) => set((s) => ({ byPlayer: { ...s.byPlayer, [playerId]: { ...(s.byPlayer[playerId] ?? NEW_DRAFT), ...change } } })),
  offered: null,
  offerLoad: (load) => set({ offered: load }),
  takeOffer: (playerId, now = performance.now()) => {
    const { offered, byPlayer } = get();
    if (offered?.playerId !== playerId) return null;
    if (now - offered.at > OFFER_WAITS_MS) {
      set({ offered: null });
      return null;
    }
    const draft = byPlayer[playerId] ?? NEW_DRAFT;
    const fields = { ...draft.fields, queueBaseUrl: offered.queueBaseUrl, httpAuthorization: offered.httpAuthorization, itemId: '', positionMillis: '' };
    set({ offered: null, byPlayer: { ...byPlayer, [playerId]: { command: 'loadCloudQueue', fields, answer: null, error: null, handedOver: offered.queueName } } });
    return offered;
  },
}));
