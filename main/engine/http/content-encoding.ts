/**
 * The Content-Encodings an answer is read decoded in, each alone, as fetch reads them: the players'
 * transport decodes with these (player/http-transport.ts), and a cut answer says it was decoded
 * only when it was (capped-body.ts). One table, so that the two never disagree (review).
 */
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The decoder of `encoding` (trimmed, lower case), or null when it is read as it came. */
export function decoderOf(encoding: string): (() => Transform) | null {
  return Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding]! : null;
}
