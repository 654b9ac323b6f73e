// The player's buttons are off for the reason the engine's precondition table gives a press.
import { describe, expect, it } from 'vitest';
import type { PlayerDetail } from '@engine-api/player-types';
import { actionBlocked, seekBlocked, seekProblemOf } from './PlayerButtons';

const refused = (reason: string) => ({ row: 'row', errorCode: 'ERROR_DISALLOWED_BY_POLICY' as const, reason });
const detail = (state: PlayerDetail['state'], refusals: PlayerDetail['refusals']) => ({ state, refusals });

describe('the player buttons read the precondition table', () => {
  it('turns a button off with the reason its row gives, and leaves it on when no row refuses it', () => {
    const playing = detail('PLAYING', { skipNext: refused('the canSkip policy forbids this skip') });
    expect(actionBlocked(playing, 'skipNext')).toBe('The canSkip policy forbids this skip');
    expect(actionBlocked(playing, 'skipPrev')).toBeNull();
    expect(actionBlocked(playing, 'pause')).toBeNull();
  });

  it('keeps every button on in a state the table allows, whatever the state is named', () => {
    // A PAUSED player with nothing refused: the buttons do not second-guess the table.
    const paused = detail('PAUSED', {});
    for (const action of ['play', 'pause', 'skipNext', 'skipPrev'] as const)
      expect(actionBlocked(paused, action)).toBeNull();
  });

  it('turns Resume off while the session is awake, and on once it is suspended', () => {
    expect(actionBlocked(detail('PLAYING', {}), 'resume')).toMatch(/not suspended/);
    expect(actionBlocked(detail('SUSPENDED', {}), 'resume')).toBeNull();
  });

  it('says why seeking is off from the seek row', () => {
    expect(seekBlocked({ refusals: { seek: refused('nothing is loaded: send loadCloudQueue first') } })).toBe(
      'Nothing is loaded: send loadCloudQueue first',
    );
    expect(seekBlocked({ refusals: {} })).toBeNull();
  });
});

describe('a seek typed as seconds', () => {
  it('is said wrong beside its field when it is no number, below 0, or past the track’s end', () => {
    expect(seekProblemOf('', 164_000)).toBeNull();
    expect(seekProblemOf('12.5', 164_000)).toBeNull();
    expect(seekProblemOf('164', 164_400)).toBeNull();
    expect(seekProblemOf('abc', 164_000)).toBe('Seek to a number of seconds, 0 or more.');
    expect(seekProblemOf('-5', 164_000)).toBe('Seek to a number of seconds, 0 or more.');
    expect(seekProblemOf('9999', 164_000)).toBe('The track is 164 s long: seek to 0 to 164 s.');
    // A track whose length is not known takes any position.
    expect(seekProblemOf('9999', undefined)).toBeNull();
  });
});
