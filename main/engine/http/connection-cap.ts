/**
 * A listener's cap on connections (connection-guard.ts), held so that a flood cannot keep a user
 * out. Node's own cap (`server.maxConnections`) closes every connection past it: 1,024 clients that
 * each drip a header byte a second, reconnecting when the 15 s deadline closes them, held the admin
 * API shut for as long as they liked, refusing the console's own requests (outside audit of
 * 7 December 2026). Here, at the cap, a new connection takes the place of the oldest one that is not
 * being answered: one whose request head has not ended (a drip, or nothing sent yet) or one idle
 * between requests. A client's connection sends its head within a millisecond and is being answered
 * from then on, so a flood would have to open the cap's worth of connections in that millisecond to
 * push it out. Only when every connection is being answered is the new one closed, without a word.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Node's own field (since 0.x): the answer a connection is sending, set when its request's head has
 * been read and cleared when the answer is done. Read only here, when a listener is full.
 */
type ServedSocket = Socket & { _httpMessage?: unknown };

const caps = new WeakMap<Server, number>();

/** The cap a listener holds its connections to; undefined when it has none of ours. */
export function connectionCapOf(server: Server): number | undefined {
  return caps.get(server);
}

export function capConnections(server: Server, cap: number): void {
  caps.set(server, cap);
  // In the order they came: the oldest first.
  const open = new Set<ServedSocket>();
  server.on('connection', (socket: ServedSocket) => {
    if (open.size >= cap) {
      const idle = oldestNotServed(open);
      if (idle === undefined) return void socket.destroy();
      open.delete(idle);
      idle.destroy();
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

function oldestNotServed(open: Set<ServedSocket>): ServedSocket | undefined {
  for (const socket of open) if (socket._httpMessage == null) return socket;
  return undefined;
}
