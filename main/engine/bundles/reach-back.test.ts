/**
 * How far back a bundle's span reaches (reach-back.ts): to the call that loaded each player busy
 * at the first exported entry that the span moves, and no further; a busy player the span leaves
 * alone (another test's, on a shared console) plays no part in it.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../journal/types.js';
import { reachBack } from './reach-back.js';

const t = (playerId: string, at: number, from: string, to: string, transition = 'row') => ({
  playerId,
  at,
  from,
  to,
  transition,
});

let seq = 0;
const call = (at: number, path: string): JournalEntry => ({
  kind: 'control',
  seq: ++seq,
  at,
  method: 'POST',
  path,
  status: 200,
  sender: 'console',
});
const LOAD = '/api/v1/playbackSessions/s-1/playbackSession:1/loadCloudQueue';

describe('reachBack', () => {
  it('reaches back to when a player the span moves left idle, when no call of its load is journaled', () => {
    const transitions = [
      t('kitchen', 100, 'IDLE', 'BUFFERING'),
      t('kitchen', 150, 'BUFFERING', 'PLAYING'),
      t('kitchen', 500, 'PLAYING', 'BUFFERING'),
    ];
    expect(reachBack(transitions, [], 400, 600)).toBe(100);
  });

  it('reaches back to the load call, which began before the player left idle (its window answered later)', () => {
    const transitions = [
      t('kitchen', 62, 'IDLE', 'IDLE', 'load-begins'),
      t('kitchen', 90, 'IDLE', 'BUFFERING', 'load-answered-plays'),
      t('kitchen', 500, 'PLAYING', 'PLAYING', 'skip-asks-server'),
    ];
    const calls = [call(50, '/api/v1/groups/g/playbackSession:1'), call(60, LOAD), call(70, '/faults')];
    expect(reachBack(transitions, calls, 400, 600)).toBe(60);
  });

  it('reaches back to the load that made the player leave idle, not an earlier one that failed', () => {
    const transitions = [
      t('kitchen', 20, 'IDLE', 'IDLE', 'load-begins'),
      t('kitchen', 30, 'IDLE', 'IDLE', 'load-failed'),
      t('kitchen', 62, 'IDLE', 'IDLE', 'load-begins'),
      t('kitchen', 90, 'IDLE', 'BUFFERING', 'load-answered-plays'),
      t('kitchen', 500, 'PLAYING', 'PLAYING', 'skip-asks-server'),
    ];
    expect(reachBack(transitions, [call(18, LOAD), call(61, LOAD)], 400, 600)).toBe(61);
  });

  it('reaches back to a load still in flight at the first entry', () => {
    const transitions = [
      t('kitchen', 62, 'IDLE', 'IDLE', 'load-begins'),
      t('kitchen', 450, 'IDLE', 'BUFFERING', 'load-answered-plays'),
    ];
    expect(reachBack(transitions, [call(60, `${LOAD}?x=1`)], 400, 600)).toBe(60);
  });

  it('leaves the span as it is for a busy player it does not move, and for one idle at its start', () => {
    const transitions = [
      t('office', 10, 'IDLE', 'BUFFERING'),
      t('office', 20, 'BUFFERING', 'PLAYING'),
      t('kitchen', 100, 'IDLE', 'BUFFERING'),
      t('kitchen', 200, 'PLAYING', 'IDLE'),
      t('kitchen', 500, 'IDLE', 'BUFFERING'),
    ];
    expect(reachBack(transitions, [call(5, LOAD), call(95, LOAD)], 400, 600)).toBe(400);
  });
});
