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

export const useCommandDrafts = create<{ byPlayer: Record<string, CommandDraft>; patch(playerId: string, change: Partial<CommandDraft>): void }>((set) => ({
  byPlayer: {},
  patch: (playerId, change) => set((s) => ({ byPlayer: { ...s.byPlayer, [playerId]: { ...(s.byPlayer[playerId] ?? NEW_DRAFT), ...change } } })),
}));
