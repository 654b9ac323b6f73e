/**
 * What was typed in a player's command bar, whom it is sent as, and the last answer it got, kept
 * per player outside the component, so that leaving the Player page and coming back loses none.
 */
import { create } from 'zustand';
import type { ControlExample, ControlExchange } from '@engine-api/commands/player';
import type { CopyableRequest } from '@engine-api/curl';
import { useLoadOffer, type OfferedLoad } from '../../stores/load-offer';

/** `request`: any control API request, typed or filled from an example (`control.examples`). */
export type Command =
  'loadCloudQueue' | 'skipToItem' | 'refreshCloudQueue' | 'suspend' | 'seek' | 'seekRelative' | 'request';

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
  /** The `request` command's method, path (from `/api/v1/`) and JSON body as typed. */
  method: 'GET' | 'POST';
  path: string;
  body: string;
}

const EMPTY: Fields = {
  queueBaseUrl: '',
  httpAuthorization: '',
  itemId: '',
  positionMillis: '',
  deltaMillis: '',
  seekLevel: 'group',
  playOnCompletion: true,
  method: 'GET',
  path: '',
  body: '',
};

/** What a command is sent to: the player's group, and its session if it has one. */
export interface CommandTarget {
  groupId: string;
  sessionId: string | null;
}

export interface ControlRequest {
  method: 'GET' | 'POST';
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
  if (command === 'request') return typedRequest(f);
  const position = number(f.positionMillis);
  const itemId = f.itemId.trim();
  if (command === 'seek' || command === 'seekRelative') {
    const path = seekPath(command, f.seekLevel, target);
    if (!path) return null;
    const move =
      command === 'seek' ? optional('positionMillis', position) : optional('deltaMillis', number(f.deltaMillis));
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
  if (command === 'skipToItem')
    return {
      method: 'POST',
      path,
      body: { itemId, ...optional('positionMillis', position), playOnCompletion: f.playOnCompletion },
    };
  return { method: 'POST', path };
}

/** The `request` command as typed; null while the path is no control API path or the body no JSON object. */
function typedRequest(f: Fields): ControlRequest | null {
  const path = f.path.trim();
  if (!/^\/(control\/)?api\/v1\//.test(path)) return null;
  const text = f.body.trim();
  if (text === '') return { method: f.method, path };
  const body = bodyOf(text);
  return body === null ? null : { method: f.method, path, body };
}

function bodyOf(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** What is wrong with a typed `request`, in words; null when it can be sent. */
export function requestProblem(f: Fields): string | null {
  if (!/^\/(control\/)?api\/v1\//.test(f.path.trim())) return 'The path starts with /api/v1/';
  if (f.body.trim() !== '' && bodyOf(f.body.trim()) === null) return 'The body is not a JSON object';
  return null;
}

/** An example (`control.examples`) as the `request` command's fields; its `{placeholders}` stay for the user to fill. */
export function exampleFields(example: ControlExample, fields: Fields): Fields {
  return {
    ...fields,
    method: example.method,
    path: example.path,
    body: example.body === undefined ? '' : JSON.stringify(example.body, null, 2),
  };
}

/**
 * A control API call as "Copy as curl / fetch" writes it (`@engine-api/curl`): the control
 * service's URL, and the bearer token it carries as far as the console shows it (its first
 * characters, masked; the token itself is not the console's to hand out).
 */
export function copyableOf(
  controlUrl: string,
  request: { method: string; path: string; body?: unknown },
  tokenHint: string,
): CopyableRequest {
  return {
    method: request.method,
    url: `${controlUrl}${request.path}`,
    headers: {
      authorization: `Bearer ${tokenHint}`,
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: request.body,
  };
}

interface CommandDraft {
  command: Command;
  fields: Fields;
  /** The grant it is sent as (`control.send`'s `as`); null: the console's own token. */
  as: string | null;
  /** The last answer, or why there was none. */
  answer: ControlExchange | null;
  error: string | null;
  /** The queue "Prepare a load on…" filled in, until the draft is sent. */
  handedOver: string | null;
}

export const NEW_DRAFT: CommandDraft = {
  command: 'loadCloudQueue',
  fields: EMPTY,
  as: null,
  answer: null,
  error: null,
  handedOver: null,
};

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
  patch: (playerId, change) =>
    set((s) => ({ byPlayer: { ...s.byPlayer, [playerId]: { ...(s.byPlayer[playerId] ?? NEW_DRAFT), ...change } } })),
  takeOffer: (playerId, now) => {
    const offered = useLoadOffer.getState().take(playerId, now);
    if (!offered) return null;
    const { byPlayer } = get();
    const draft = byPlayer[playerId] ?? NEW_DRAFT;
    const fields = {
      ...draft.fields,
      queueBaseUrl: offered.queueBaseUrl,
      httpAuthorization: offered.httpAuthorization,
      itemId: '',
      positionMillis: '',
    };
    set({
      byPlayer: {
        ...byPlayer,
        [playerId]: {
          command: 'loadCloudQueue',
          fields,
          as: draft.as,
          answer: null,
          error: null,
          handedOver: offered.queueName,
        },
      },
    });
    return offered;
  },
}));

/** The ids of the form's command and queue fields: the Now playing panel's empty line takes the user to them. */
export const CONTROL_COMMAND_FIELD = 'control-command';
export const LOAD_QUEUE_FIELD = 'control-load-queue';
