/**
 * How far back a bundle's span reaches (export.ts `reachBack`): to the load of each player busy at
 * the first exported entry that the span moves, and no further; a busy player the span leaves
 * alone (another test's, on a shared console) plays no part in it.
 */
import { describe, expect, it } from 'vitest';
import { reachBack } from './export.js';

const t = (playerId: string, at: number, from: string, to: string) => ({ playerId, at, from, to });

describe('reachBack', () => {
  it('reaches back to when a player the span moves left idle', () => {
    const transitions = [
      t('kitchen', 100, 'IDLE', 'BUFFERING'),
      t('kitchen', 150, 'BUFFERING', 'PLAYING'),
      t('kitchen', 500, 'PLAYING', 'BUFFERING'),
    ];
    expect(reachBack(transitions, 400, 600)).toBe(100);
  });

  it('leaves the span as it is for a busy player it does not move, and for one idle at its start', () => {
    const transitions = [
      t('office', 10, 'IDLE', 'BUFFERING'),
      t('office', 20, 'BUFFERING', 'PLAYING'),
      t('kitchen', 100, 'IDLE', 'BUFFERING'),
      t('kitchen', 200, 'PLAYING', 'IDLE'),
      t('kitchen', 500, 'IDLE', 'BUFFERING'),
    ];
    expect(reachBack(transitions, 400, 600)).toBe(400);
  });
});
