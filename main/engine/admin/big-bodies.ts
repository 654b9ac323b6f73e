/**
 * How many large admin bodies are read at once (docs/contract/console.md §9). Each command caps
 * its own body (a queue of 100,000 items: 128 MiB), and one such call peaks at a few hundred MB
 * while it is decoded, parsed and staged; nothing bounded them together: six at once took the
 * console past 2 GB and stalled a listener 265 ms. Past BIG_BODIES_AT_ONCE, another is answered
 * 503 with Retry-After before a byte of it is read, and its connection closed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A body over this (declared, or chunked and of unknown length) is a large one. */
export const BIG_BODY_BYTES = 1024 * 1024;
/** Large bodies read at once, all admin routes together. */
export const BIG_BODIES_AT_ONCE = 2;
/** What a refused caller is told to wait, in seconds. */
export const BIG_BODY_RETRY_AFTER_S = 2;

export class BigBodies {
  private reading = 0;

  /** Takes a slot for a large body, given back when its answer has gone; a refusal when none is left. */
  admit(request: FastifyRequest, reply: FastifyReply): Error | undefined {
    const { headers } = request.raw;
    const chunked = headers['transfer-encoding'] !== undefined;
    if (!chunked && Number(headers['content-length'] ?? 0) <= BIG_BODY_BYTES) return undefined;
    if (this.reading >= BIG_BODIES_AT_ONCE) {
      reply.header('connection', 'close').header('retry-after', String(BIG_BODY_RETRY_AFTER_S));
      return Object.assign(
        new Error(
          `${BIG_BODIES_AT_ONCE} large bodies (over ${BIG_BODY_BYTES / 1024 / 1024} MiB) are being read already: try again in ${BIG_BODY_RETRY_AFTER_S} s`,
        ),
        { statusCode: 503 },
      );
    }
    this.reading++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.reading--;
    };
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
    return undefined;
  }
}
