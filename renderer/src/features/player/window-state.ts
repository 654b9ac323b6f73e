/**
 * Where the player stands in its window, when its state alone does not say it: waiting at the
 * window's edge (BUFFERING, but for a window, not audio), paused because the queue ended (not by
 * a user), or draining after its background retries ran out.
 */
import type { PlayerDetail } from '@engine-api/player-types';

export interface WindowState {
  text: string;
  tone: 'warn' | 'info';
}

export function windowStates(detail: Pick<PlayerDetail, 'state' | 'atEnd' | 'atEdge' | 'draining'>): WindowState[] {
  const states: WindowState[] = [];
  if (detail.atEdge && detail.state === 'BUFFERING')
    states.push({ text: 'at the window\u2019s edge: waiting for the next window', tone: 'info' });
  if (detail.atEnd && detail.state === 'PAUSED') states.push({ text: 'paused after the last track', tone: 'info' });
  if (detail.draining) states.push({ text: 'draining: background retries used up', tone: 'warn' });
  return states;
}
