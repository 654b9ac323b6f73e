/**
 * What was typed in a player's command bar and the last answer it got, kept per player outside
 * the component, so that leaving the Player page and coming back loses neither.
 */
import { create } from 'zustand';
import type { ControlExchange } from '@engine-api/commands/player';
import { useLoadOffer, type OfferedLoad } from '../../stores/load-offer';

export type Command = 'loadCloudQueue' | 'skipToItem' | 'refreshCloudQueue' | 'suspend' | 'seek' | 'seekRelative';

/** seek and seekRelative exist at both levels (docs/contract/console.md §3): the group's `playback:1`, the session's `playbackSession:1`. */
export type SeekLevel = 'group' | 'session';

export const SEEK_COMMANDS: readonly Command[] = ['seek', 'seekRelative'];

export interface Fields {
  queueBaseUrl: string;
  httpAuthorization: string;
  itemId: string;
  positionMillis: string;
  /** seekRelative's move, negative to go back. */
  deltaMillis: string;
  seekLevel: SeekLevel;
  playOnCompletion: boolean;
}

const EMPTY: Fields = { queueBaseUrl: '', httpAuthorization: '', itemId: '', positionMillis: '', deltaMillis: '', seekLevel: 'group', playOnCompletion: true };

/** What a command is sent to: the player's group, and its session if it has one. */
export interface CommandTarget {
  groupId: string;
  sessionId: string | null;
}

export interface ControlRequest {
  method: 'POST';
  path: string;
  body?: Record<string, unknown>;
}

/** The path of seek or seekRelative at `level`; null at session level without a session. */
export function seekPath(command: 'seek' | 'seekRelative', level: SeekLevel, target: CommandTarget): string | null {
  if (level === 'group') return `/api/v1/groups/${target.groupId}/playback:1/${command}`;
  return target.sessionId ? `/api/v1/playbackSessions/${target.sessionId}/playbackSession:1/${command}` : null;
}

/**
 * The control API request a draft sends, as typed: an empty field is left out, anything else is
 * sent as the number it reads as, so the API's own answer says what is wrong with it. Null when
 * the command needs a session and there is none.
 */
export function requestOf(command: Command, f: Fields, target: CommandTarget): ControlRequest | null {
  const number = (value: string) => (value.trim() === '' ? undefined : Number(value));
  const optional = (name: string, value: unknown) => (value === undefined || value === '' ? {} : { [name]: value });
  const position = number(f.positionMillis);
  const itemId = f.itemId.trim();
  if (command === 'seek' || command === 'seekRelative') {
    const path = seekPath(command, f.seekLevel, target);
    if (!path) return null;
    const move = command === 'seek' ? optional('positionMillis', position) : optional('deltaMillis', number(f.deltaMillis));
    return { method: 'POST', path, body: { ...move, ...optional('itemId', itemId) } };
  }
  if (!target.sessionId) return null;
  const path = `/api/v1/playbackSessions/${target.sessionId}/playbackSession:1/${command}`;
  if (command === 'loadCloudQueue') {
    return {
      method: 'POST',
      path,
      body: {
        queueBaseUrl: f.queueBaseUrl.trim(),
        ...optional('httpAuthorization', f.httpAuthorization.trim()),
        ...optional('itemId', itemId),
        ...optional('positionMillis', position),
        playOnCompletion: f.playOnCompletion,
      },
    };
  }
  if (command === 'skipToItem') return { method: 'POST', path, body: { itemId, ...optional('positionMillis', position), playOnCompletion: f.playOnCompletion } };
  return { method: 'POST', path };
}

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

interface CommandDrafts {
  byPlayer: Record<string, CommandDraft>;
  patch(playerId: string, change: Partial<CommandDraft>): void;
  /**
   * `playerId`'s command bar takes the load offered to it (stores/load-offer.ts), if any and not
   * stale, as its loadCloudQueue draft (its other fields stay); answers it.
   */
  takeOffer(playerId: string, now?: number): OfferedLoad | null;
}

export const useCommandDrafts = create<CommandDrafts>((set, get) => ({
  byPlayer: {},
  patch: (playerId, change) => set((s) => ({ byPlayer: { ...s.byPlayer, [playerId]: { ...(s.byPlayer[playerId] ?? NEW_DRAFT), ...change } } })),
  takeOffer: (playerId, now) => {
    const offered = useLoadOffer.getState().take(playerId, now);
    if (!offered) return null;
    const { byPlayer } = get();
    const draft = byPlayer[playerId] ?? NEW_DRAFT;
    const fields = { ...draft.fields, queueBaseUrl: offered.queueBaseUrl, httpAuthorization: offered.httpAuthorization, itemId: '', positionMillis: '' };
    set({ byPlayer: { ...byPlayer, [playerId]: { command: 'loadCloudQueue', fields, answer: null, error: null, handedOver: offered.queueName } } });
    return offered;
  },
}));
