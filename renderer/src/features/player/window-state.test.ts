import { describe, expect, it } from 'vitest';
import { windowStates } from './window-state';

describe('windowStates', () => {
  it('says a buffering player at the window\u2019s edge waits for a window, not for audio', () => {
    expect(windowStates({ state: 'BUFFERING', atEnd: false, atEdge: true, draining: false })).toEqual([
      { text: 'at the window\u2019s edge: waiting for the next window', tone: 'info' },
    ]);
    expect(windowStates({ state: 'BUFFERING', atEnd: false, atEdge: false, draining: false })).toEqual([]);
  });

  it('tells a pause at the end of the queue from a user\u2019s pause', () => {
    expect(windowStates({ state: 'PAUSED', atEnd: true, atEdge: false, draining: false }).map((s) => s.text)).toEqual([
      'paused after the last track',
    ]);
    expect(windowStates({ state: 'PAUSED', atEnd: false, atEdge: true, draining: false })).toEqual([]);
  });

  it('warns when background retries ran out, alongside where the player stands', () => {
    expect(windowStates({ state: 'PAUSED', atEnd: true, atEdge: false, draining: true })).toEqual([
      { text: 'paused after the last track', tone: 'info' },
      { text: 'draining: background retries used up', tone: 'warn' },
    ]);
  });
});
