/**
 * A state in a word, in a small rounded frame: a player's playback state, a grant's status, a
 * violation's level. The word is always there, so a badge never says anything by colour alone;
 * `tone`, `state` and `status` colour the word (styles.css, where the badge is one of the few
 * global primitives: end-to-end tests find it as `.badge`; an area's own statuses in its module).
 */
import type { HTMLAttributes } from 'react';

/** A badge that is neither a state nor a status: a warning, or a note on what is going on. */
export type BadgeTone = 'ok' | 'warn' | 'bad' | 'info';

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
  /** A playback state (PLAYBACK_STATE_PAUSED…), as `data-state`. */
  state?: string;
  /** A status (active, revoked, delivered…), as `data-status`. */
  status?: string;
}

export function Badge({ tone, state, status, className, ...rest }: BadgeProps) {
  return (
    <span
      {...rest}
      className={className ? `badge ${className}` : 'badge'}
      data-tone={tone}
      data-state={state}
      data-status={status}
    />
  );
}
