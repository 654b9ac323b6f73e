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
}

export const NEW_DRAFT: CommandDraft = { command: 'loadCloudQueue', fields: EMPTY, answer: null, error: null };

/** A queue handed over from the Queues area ("Load on a player…"). */
export type OfferedLoad = Pick<Fields, 'queueBaseUrl' | 'httpAuthorization'>;

interface CommandDrafts {
  byPlayer: Record<string, CommandDraft>;
  patch(playerId: string, change: Partial<CommandDraft>): void;
  /** Waits for the next command bar shown, which makes it its player's loadCloudQueue draft. */
  offered: OfferedLoad | null;
  offerLoad(load: OfferedLoad): void;
  /** `playerId`'s command bar takes the offered load, if any (its other fields stay). */
  takeOffer(playerId: string): void;
}

export const useCommandDrafts = create<CommandDrafts>((set) => ({
  byPlayer: {},
  patch: (playerId, change) => set((s) => ({ byPlayer: { ...s.byPlayer, [playerId]: { ...(s.byPlayer[playerId] ?? NEW_DRAFT), ...change } } })),
  offered: null,
  offerLoad: (load) => set({ offered: load }),
  takeOffer: (playerId) =>
    set((s) => {
      if (!s.offered) return s;
      const draft = s.byPlayer[playerId] ?? NEW_DRAFT;
      const taken: CommandDraft = { command: 'loadCloudQueue', fields: { ...draft.fields, ...s.offered, itemId: '', positionMillis: '' }, answer: null, error: null };
      return { offered: null, byPlayer: { ...s.byPlayer, [playerId]: taken } };
    }),
}));
