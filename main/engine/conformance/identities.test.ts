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
    expect(identities.placeChanged).toBe(1);
    expect(identities.placeChanges).toEqual([
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
    expect(identities.placeChanges).toEqual([expect.stringContaining('label-b.s3.amazonaws.com/tracks/01.mp3')]);
  });

  it('is one track when its path is signed anew in every window, its name and file kept, said once (audit Y13)', () => {
    const signed = (hmac: string, path = '/t/3.mp3') =>
      `https://media.example.com/hdnts=exp=1767225600~acl=*~hmac=${hmac}${path}`;
    const identities = identitiesOf(
      windowOf({
        a: { name: 'Track 4', mediaUrl: signed('8d8b') },
        b: { name: 'Long', mediaUrl: signed('1', LONG_PATH) },
      }),
      windowOf({
        a: { name: 'Track 4', mediaUrl: signed('6936') },
        b: { name: 'Long', mediaUrl: signed('2', LONG_PATH) },
      }),
      windowOf({
        a: { name: 'Track 4', mediaUrl: signed('77aa') },
        b: { name: 'Long', mediaUrl: signed('3', LONG_PATH) },
      }),
    );
    expect(identities.conflicts).toEqual([]);
    expect(identities.placeChanged).toBe(2);
    expect(identities.placeChanges[0]).toMatch(
      /^a came with its media under two paths ending in one file, "Track 4" \(https:\/\/media\.example\.com\/hdnts=exp=1767225600~acl=\*~hmac=8d8b\/t\/3\.mp3\) in GET \/itemWindow\?reason=refresh&n=\d+ and "Track 4" \(.*hmac=6936\/t\/3\.mp3\) in .*: one track if the path carries a signature \(a CDN's path token\), another under a reused id if not$/,
    );
  });

  it('(outside audit) is one track when an opaque URL naming no file is issued anew under its name, said, not failed', () => {
    const identities = identitiesOf(
      windowOf({ a: { name: 'Track 1', mediaUrl: 'https://cdn.example.com/p/BUS24kq9' } }),
      windowOf({ a: { name: 'Track 1', mediaUrl: 'https://cdn.example.com/p/nx53Lw0Q' } }),
      windowOf({ b: { name: 'Track 2', mediaUrl: 'https://cdn.example.com/t/02.mp3' } }),
      windowOf({ b: { name: 'Track 2', mediaUrl: 'https://cdn.example.com/p/Zq0x7' } }),
    );
    expect(identities.conflicts).toEqual([]);
    expect(identities.placeChanges).toEqual([
      expect.stringMatching(/^a came with its media at two URLs that name no file, under one track name, /),
      expect.stringMatching(/^b came with its media at two URLs that name no file, /),
    ]);
    // Another name under an opaque URL is another track still.
    const renamed = identitiesOf(
      windowOf({ a: { name: 'Track 1', mediaUrl: 'https://cdn.example.com/p/BUS24kq9' } }),
      windowOf({ a: { name: 'Track 9', mediaUrl: 'https://cdn.example.com/p/nx53Lw0Q' } }),
    );
    expect(renamed.conflicts).toEqual([expect.stringMatching(/^expected a to name one track/)]);
  });

  it('is another track when the file changes, or the name, or one of the two paths has no name to tell it by', () => {
    const identities = identitiesOf(
      windowOf({
        file: { name: 'Intro', mediaUrl: 'https://cdn.example/s=1/t/01.mp3' },
        name: { name: 'Intro', mediaUrl: 'https://cdn.example/s=1/t/01.mp3' },
        unnamed: { mediaUrl: 'https://cdn.example/s=1/t/01.mp3' },
        long: { name: 'Long', mediaUrl: `https://cdn.example${LONG_PATH}` },
      }),
      windowOf({
        file: { name: 'Intro', mediaUrl: 'https://cdn.example/s=2/t/02.mp3' },
        name: { name: 'Outro', mediaUrl: 'https://cdn.example/s=2/t/01.mp3' },
        unnamed: { mediaUrl: 'https://cdn.example/s=2/t/01.mp3' },
        long: { name: 'Long', mediaUrl: `https://cdn.example${LONG_PATH.replace('.m4a', '-2.m4a')}` },
      }),
    );
    expect(identities.conflicts.map((conflict) => conflict.split(' ')[1])).toEqual(['file', 'name', 'unnamed', 'long']);
    expect(identities.placeChanged).toBe(0);
  });

  it('tells the first two host changes and counts the rest', () => {
    const hosts = (n: number) =>
      Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [`id-${i}`, { mediaUrl: `https://edge-${n}.cdn.example/${i}.mp3` }]),
      );
    const identities = identitiesOf(windowOf(hosts(1)), windowOf(hosts(2)), windowOf(hosts(3)));
    expect(identities.placeChanged).toBe(8);
    expect(identities.placeChanges).toHaveLength(2);
  });
});
