import type { Failure } from './retry.js';

/**
 * The platform's public error codes for playback (docs/contract/console.md §3), raised by the player and turned
 * into `{"errorCode","reason"}` bodies by the control API.
 */
export type PlaybackErrorCode =
  | 'ERROR_INVALID_PARAMETER'
  | 'ERROR_MISSING_PARAMETERS'
  | 'ERROR_INVALID_OBJECT_ID'
  | 'ERROR_DISALLOWED_BY_POLICY'
  | 'ERROR_SKIP_LIMIT_REACHED'
  | 'ERROR_CLOUD_QUEUE_SERVER'
  | 'ERROR_SESSION_EVICTED'
  | 'ERROR_PLAYBACK_NO_CONTENT'
  /** A path (or method) the control API does not have; never a missing id (docs/contract/console.md §3). */
  | 'ERROR_UNSUPPORTED_COMMAND';

export class PlaybackError extends Error {
  constructor(
    readonly errorCode: PlaybackErrorCode,
    readonly reason: string,
    readonly extra: { httpStatus?: number; itemId?: string } = {},
  ) {
    super(reason);
    this.name = 'PlaybackError';
  }
}

/** A cloud queue request's failure as the control API reports it (`ERROR_CLOUD_QUEUE_SERVER`). */
export function cloudQueueError(failure: Failure, itemId?: string): PlaybackError {
  return new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', `the cloud queue server failed: ${failure.message}`, {
    httpStatus: failure.status,
    itemId,
  });
}
