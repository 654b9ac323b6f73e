/**
 * A request's body, read for the traffic log beside whoever reads it for the route.
 *
 * Every request with a body goes through here (in a fleet, every `timePlayed` report). Piping the
 * body through a PassThrough of our own cost a Duplex, a pipe with its listeners and a turn of
 * `nextTick` per chunk: about a quarter of what capture added to a fleet's requests (the profile
 * is in docs/decisions/perf-capture-off-the-request-path.md). The body stream is the socket's
 * request, not yet read by anyone when the first `preParsing` hook runs: paused there, it keeps
 * what arrives until its reader resumes it (fastify's body parser and `pipe` both do), and from
 * then on every chunk goes to both listeners, ours first. A stream someone already reads is
 * tapped through a PassThrough as before. A body its route answers without reading (a refused
 * media type) is dropped by Node once the answer is sent, as before: its end came after the
 * entry was written either way.
 */
import { PassThrough, type Readable } from 'node:stream';
import { MAX_BODY_BYTES } from './cut.js';

/** `ended` gets the body's first `MAX_BODY_BYTES` (at least) and its whole size, once it has ended. */
export function tapBody(payload: Readable, ended: (kept: Buffer, size: number) => void): Readable {
  if (payload.readableFlowing === null) {
    // A 'data' listener on a stream paused on purpose does not start it; its reader does.
    payload.pause();
    listen(payload, ended);
    return payload;
  }
  const tap = new PassThrough();
  listen(tap, ended);
  return payload.pipe(tap);
}

/**
 * The listeners are passed as they are made, unnamed: a named function made per request costs a
 * `defineProperty` of its name where the build keeps names (tsx's does).
 */
function listen(stream: Readable, ended: (kept: Buffer, size: number) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (size < MAX_BODY_BYTES) chunks.push(bytes);
    size += bytes.length;
  });
  stream.once('end', () => ended(Buffer.concat(chunks), size));
}
