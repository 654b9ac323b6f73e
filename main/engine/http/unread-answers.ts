/**
 * Answers nobody reads (docs/security.md): Node keeps what a connection has not taken in memory for
 * as long as the connection lives, and nothing else ends one that reads nothing. 20 unread answers
 * of 7 MB (a control API answer whose player holds a long name) held 430 MB and stalled the
 * listener for 0.6 s, and 60 of 14 MB took 4 GB (audit of 5 December 2026). So, on every listener:
 *
 * - a connection whose pending output has not moved for SEND_STALL_MS is destroyed. Moving is
 *   counted down to the kernel's share of a write in progress, so a client that reads a large
 *   answer slowly is moving; the time is counted in looks, so one late look after the event loop
 *   was blocked cuts nothing;
 * - while a listener's connections hold more than PENDING_BUDGET_BYTES not yet taken, those
 *   standing still longest are destroyed at once until they hold less;
 * - answers waiting behind the one on the wire (pipelined requests) count as the connection's, and
 *   a connection that has more than MAX_PIPELINED of them waiting is destroyed as the next comes:
 *   Node parses every request of a read before it pauses, and 64 KB of requests is 2,000 answers.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const SEND_STALL_MS = 30_000;
export const PENDING_BUDGET_BYTES = 256 * 1024 * 1024;
/** Answers a connection may have waiting behind its current one: browsers and players pipeline none. */
export const MAX_PIPELINED = 32;
/** The most time between two looks. */
const LOOK_EVERY_MS = 1_000;

/** What libuv still holds of a write in progress: it shrinks as the client reads. */
type WithHandle = Socket & { _handle?: { writeQueueSize?: number } | null };

interface Still {
  /** What the connection had taken when it was last seen to move. */
  mark: string;
  /** Looks since then. */
  looks: number;
}

export function cutUnreadAnswers(server: Server, { stallMs = SEND_STALL_MS, budgetBytes = PENDING_BUDGET_BYTES } = {}) {
  const lookEveryMs = Math.min(LOOK_EVERY_MS, stallMs);
  const stillLooks = Math.max(1, Math.ceil(stallMs / lookEveryMs));
  const sockets = new Set<Socket>();
  const still = new Map<Socket, Still>();
  const waiting = new Map<Socket, Set<ServerResponse>>();

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      still.delete(socket);
      waiting.delete(socket);
    });
  });
  // Only a pipelined answer has no socket yet when its request comes: the others cost one check.
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (response.socket !== null) return;
    const socket = request.socket;
    let queued = waiting.get(socket);
    if (!queued) waiting.set(socket, (queued = new Set()));
    queued.add(response);
    response.once('close', () => queued.delete(response));
    if (queued.size > MAX_PIPELINED) socket.destroy();
  });

  /** Bytes the connection holds not yet taken: its own, and those of answers waiting their turn. */
  const pendingOf = (socket: Socket): number => {
    let pending = socket.writableLength;
    const queued = waiting.get(socket);
    if (queued)
      for (const response of queued) {
        if (response.socket !== null) queued.delete(response);
        else pending += response.writableLength;
      }
    return pending;
  };

  const look = (): void => {
    let held = 0;
    const standing: { socket: Socket; looks: number; pending: number }[] = [];
    for (const socket of sockets) {
      const pending = pendingOf(socket);
      if (pending === 0) {
        still.delete(socket);
        continue;
      }
      const inFlight = (socket as WithHandle)._handle?.writeQueueSize ?? 0;
      // What it has taken: finished writes, and the kernel's share of the one in progress.
      const mark = `${socket.bytesWritten - socket.writableLength}:${inFlight}`;
      const seen = still.get(socket);
      if (!seen || seen.mark !== mark) still.set(socket, { mark, looks: 0 });
      else if (++seen.looks >= stillLooks) {
        socket.destroy();
        continue;
      } else standing.push({ socket, looks: seen.looks, pending });
      held += pending;
    }
    if (held <= budgetBytes) return;
    // Standing still longest first; one that moved since the last look is reading, and kept.
    standing.sort((a, b) => b.looks - a.looks);
    for (const { socket, pending } of standing) {
      if (held <= budgetBytes) break;
      socket.destroy();
      held -= pending;
    }
  };
  const timer = setInterval(look, lookEveryMs).unref();
  server.once('close', () => clearInterval(timer));
}
