/**
 * How check tells an item id's tracks apart over the windows it keeps (retained.ts): by name and
 * by media path. One path from two hosts is said (a CDN's hosts serve one file; two buckets under
 * one key are two files) and never failed; another path is another track, however long the path
 * (a long one is kept as a fingerprint of the path alone, never of its host: review).
 */
import { describe, expect, it } from 'vitest';
import type { PlayerExchange } from '../player/client.js';
import { TrackIdentities } from './identities.js';
import { retainedView } from './retained.js';
import type { WindowView } from './window-view.js';

// A path of percent-encoded Japanese names: each character is nine characters, past the 256 kept whole.
const LONG_PATH = `/music/${encodeURIComponent('ヨルシカと米津玄師の共演アルバム')}/${encodeURIComponent('夜に駆ける（リマスター・デラックス版）')}.m4a`;

let served = 0;
function windowOf(tracks: Record<string, { name?: string; mediaUrl: string }>): WindowView {
  const items = Object.entries(tracks).map(([id, track]) => ({ id, track }));
  const text = JSON.stringify({ items, queueVersion: 'v1' });
  const exchange = {
    method: 'GET',
    url: `http://127.0.0.1/q/itemWindow?reason=refresh&n=${++served}`,
    endpoint: 'itemWindow',
  } as PlayerExchange;
  return {
    answer: { exchange, status: 200, text, json: JSON.parse(text), failure: undefined },
    items,
    ids: items.map((item) => item.id),
    includesBeginningOfQueue: true,
    includesEndOfQueue: true,
    queueVersion: 'v1',
  };
}

function identitiesOf(...windows: WindowView[]): TrackIdentities {
  const identities = new TrackIdentities();
  for (const window of windows) identities.add(retainedView(window));
  return identities;
}

describe('an id’s track over the windows check keeps', () => {
  it('is one track when its long path comes from another host of the CDN, said once', () => {
    expect(LONG_PATH.length).toBeGreaterThan(256);
    const identities = identitiesOf(
      windowOf({ a: { name: 'Yoru ni Kakeru', mediaUrl: `https://edge-1.media.example${LONG_PATH}?sig=1` } }),
      windowOf({ a: { name: 'Yoru ni Kakeru', mediaUrl: `https://edge-2.media.example${LONG_PATH}?sig=2` } }),
      windowOf({ a: { name: 'Yoru ni Kakeru', mediaUrl: `https://edge-3.media.example${LONG_PATH}?sig=3` } }),
    );
    expect(identities.conflicts).toEqual([]);
    expect(identities.hostChanged).toBe(1);
    expect(identities.hostChanges).toEqual([
      expect.stringMatching(
        /^a came with its media from two hosts, "Yoru ni Kakeru" \(https:\/\/edge-1\.media\.example\/music\/.*\) in GET \/itemWindow\?reason=refresh&n=\d+ and "Yoru ni Kakeru" \(https:\/\/edge-2\.media\.example\/.*: one track if both serve the same file \(a CDN's hosts\), another under a reused id if not$/,
      ),
    ]);
  });

  it('is another track when its long path changes, whatever the host', () => {
    const identities = identitiesOf(
      windowOf({ a: { mediaUrl: `https://edge-1.media.example${LONG_PATH}` } }),
      windowOf({ a: { mediaUrl: `https://edge-1.media.example${LONG_PATH.replace('.m4a', '-2.m4a')}` } }),
    );
    expect(identities.conflicts).toEqual([expect.stringMatching(/^expected a to name one track, got /)]);
  });

  it('says, and does not pass in silence, one key in two buckets under one name (review)', () => {
    const identities = identitiesOf(
      windowOf({ a: { name: 'Intro', mediaUrl: 'https://label-a.s3.amazonaws.com/tracks/01.mp3?X-Amz-Signature=1' } }),
      windowOf({ a: { name: 'Intro', mediaUrl: 'https://label-b.s3.amazonaws.com/tracks/01.mp3?X-Amz-Signature=2' } }),
    );
    expect(identities.conflicts).toEqual([]);
    expect(identities.hostChanges).toEqual([expect.stringContaining('label-b.s3.amazonaws.com/tracks/01.mp3')]);
  });

  it('tells the first two host changes and counts the rest', () => {
    const hosts = (n: number) =>
      Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [`id-${i}`, { mediaUrl: `https://edge-${n}.cdn.example/${i}.mp3` }]),
      );
    const identities = identitiesOf(windowOf(hosts(1)), windowOf(hosts(2)), windowOf(hosts(3)));
    expect(identities.hostChanged).toBe(8);
    expect(identities.hostChanges).toHaveLength(2);
  });
});
