/**
 * Writes an event stream's texts to its response a piece at a time, as fast as the socket takes
 * them. One event's text is shared by every stream (sse.ts); written whole, each socket that could
 * not send it at once kept its own copy of what was left (ten paused readers of one 15 MB event:
 * ten copies). Here what waits is the shared texts themselves and a place in the first, and each
 * socket holds at most a piece beyond what the kernel took.
 */
import type { ServerResponse } from 'node:http';

/** Characters handed to the socket at a time. */
export const PIECE_CHARS = 64 * 1024;

export class PacedWriter {
  private readonly waiting: string[] = [];
  /** Where the next piece of `waiting[0]` starts. */
  private offset = 0;
  /** Characters in `waiting` not yet handed to the socket. */
  private waitingChars = 0;
  private draining = false;

  constructor(private readonly response: ServerResponse) {}

  /** Queues a text; what the socket takes now goes at once. */
  write(text: string): void {
    this.waiting.push(text);
    this.waitingChars += text.length;
    if (!this.draining) this.pump();
  }

  /**
   * Written and not yet read, near enough in bytes (the socket's bytes, the queue's characters),
   * less the rest of the text being written: a reader that keeps up takes one text of any size,
   * while what comes after it counts.
   */
  behind(): number {
    const current = this.waiting.length > 0 ? this.waiting[0]!.length - this.offset : 0;
    return this.response.writableLength + this.waitingChars - current;
  }

  /** Whether a text was begun and not finished: the reader holds half of an event. */
  midText(): boolean {
    return this.offset > 0;
  }

  /** Lets go of what was not handed to the socket yet. */
  discard(): void {
    this.waiting.length = 0;
    this.waitingChars = 0;
    this.offset = 0;
  }

  private readonly pump = (): void => {
    this.draining = false;
    while (this.waiting.length > 0) {
      const text = this.waiting[0]!;
      const end = Math.min(text.length, this.offset + PIECE_CHARS);
      const piece = this.offset === 0 && end === text.length ? text : text.slice(this.offset, end);
      this.waitingChars -= end - this.offset;
      if (end === text.length) {
        this.waiting.shift();
        this.offset = 0;
      } else this.offset = end;
      if (this.response.writableEnded) return this.discard();
      if (!this.response.write(piece)) {
        this.draining = true;
        this.response.once('drain', this.pump);
        return;
      }
    }
  };
}
