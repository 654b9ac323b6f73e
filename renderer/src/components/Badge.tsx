/**
 * A state in a word, in a small rounded frame: a player's playback state, a grant's status, a
 * violation's level. The word is always there, so a badge never says anything by colour alone;
 * `state` and `status` are hooks for the colour of the word (styles.css, the areas' own CSS).
 */
import type { HTMLAttributes } from 'react';
import './Badge.css';

/** A badge that is neither a state nor a status: a warning, or a note on what is going on. */
export type BadgeTone = 'warn' | 'info';

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
      className={['badge', tone ?? '', className ?? ''].filter(Boolean).join(' ')}
      data-state={state}
      data-status={status}
    />
  );
}
