/** The event signature against a value a public client library's own tests verify (docs/events.md), and what counts as a jump. */
import { describe, expect, it } from 'vitest';
import { eventHeaders, eventSignature } from './signature.js';
import { playbackChanged, POSITION_JUMP_MS } from './watch.js';

describe('the event signature', () => {
  it('is the base64url SHA-256 of the five header values, the client id and the secret, as public receivers check it', () => {
    // The header values, key and secret of a public client library's signature test, with the signature it accepts.
    const values = {
      seqId: 'event-seq-id',
      namespace: 'namespace',
      type: 'type',
      targetType: 'target-type',
      targetValue: 'target-value',
    };
    expect(eventSignature(values, 'sonos', 'secret')).toBe('n9V0MCdGYaOPy_dJb_nUPqw5dHiBSd_g0NOQTe4IaVI');
  });

  it('leaves the household out, and goes with every header of the public shape', () => {
    const headers = eventHeaders(
      {
        seqId: 7,
        namespace: 'groupVolume',
        type: 'groupVolume',
        targetType: 'groupId',
        targetValue: 'group-kitchen',
        householdId: 'household-demo',
      },
      'id',
      'secret',
    );
    expect(Object.keys(headers)).toEqual([
      'Content-Type',
      'X-Sonos-Household-Id',
      'X-Sonos-Event-Seq-Id',
      'X-Sonos-Namespace',
      'X-Sonos-Type',
      'X-Sonos-Target-Type',
      'X-Sonos-Target-Value',
      'X-Sonos-Event-Signature',
    ]);
    const other = eventHeaders(
      {
        seqId: 7,
        namespace: 'groupVolume',
        type: 'groupVolume',
        targetType: 'groupId',
        targetValue: 'group-kitchen',
        householdId: 'elsewhere',
      },
      'id',
      'secret',
    );
    expect(other['X-Sonos-Event-Signature']).toBe(headers['X-Sonos-Event-Signature']);
    expect(headers['X-Sonos-Event-Signature']).not.toMatch(/[=+/]/);
  });
});

describe('a change of playback', () => {
  const seen = (playbackState: string, positionMillis: number, at: number, itemId = 'a') => ({
    body: { playbackState, itemId, positionMillis, queueVersion: 'v1' },
    at,
  });

  it('is not steady play, but is a new state, item, version or a jump of the playhead', () => {
    expect(
      playbackChanged(seen('PLAYBACK_STATE_PLAYING', 1_000, 0), seen('PLAYBACK_STATE_PLAYING', 6_000, 5_000), null),
    ).toBe(false);
    expect(
      playbackChanged(seen('PLAYBACK_STATE_PAUSED', 1_000, 0), seen('PLAYBACK_STATE_PAUSED', 1_000, 5_000), null),
    ).toBe(false);
    expect(
      playbackChanged(seen('PLAYBACK_STATE_PLAYING', 1_000, 0), seen('PLAYBACK_STATE_PAUSED', 1_000, 0), null),
    ).toBe(true);
    expect(
      playbackChanged(seen('PLAYBACK_STATE_PLAYING', 1_000, 0), seen('PLAYBACK_STATE_PLAYING', 1_000, 0, 'b'), null),
    ).toBe(true);
    expect(
      playbackChanged(seen('PLAYBACK_STATE_PLAYING', 1_000, 0), seen('PLAYBACK_STATE_PLAYING', 60_000, 5_000), null),
    ).toBe(true);
    expect(
      playbackChanged(
        seen('PLAYBACK_STATE_PAUSED', 1_000, 0),
        seen('PLAYBACK_STATE_PAUSED', 1_000 + POSITION_JUMP_MS + 1, 0),
        null,
      ),
    ).toBe(true);
    expect(
      playbackChanged(
        seen('PLAYBACK_STATE_PAUSED', 1_000, 0),
        seen('PLAYBACK_STATE_PAUSED', 1_000 + POSITION_JUMP_MS, 0),
        null,
      ),
    ).toBe(false);
  });

  it('is not a track that stopped at its end while still playing', () => {
    expect(
      playbackChanged(
        seen('PLAYBACK_STATE_PLAYING', 170_000, 0),
        seen('PLAYBACK_STATE_PLAYING', 180_000, 20_000),
        180_000,
      ),
    ).toBe(false);
  });
});
