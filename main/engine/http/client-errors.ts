/**
 * What Node's HTTP parser refuses before any route sees the request (a header block past its
 * limit: 431; a malformed head, a bad Content-Length: 400; a head not in time: 408), answered in
 * the listener's own error shape: fastify's own JSON (`{"error":"Request Header Fields Too
 * Large",…}`) was every listener's, where the admin API promises `{"error":{"code","message"}}`
 * and the control API `{"errorCode","reason"}` (outsider). The connection is closed after it, as
 * Node and fastify close it: the parser cannot tell where the next request would begin.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** A listener's error answer as text: its content type and body. */
export type ClientErrorBody = (status: number, message: string) => { type: string; body: string };

/** fastify's own, for a listener that has no shape of its own. */
const PLAIN: ClientErrorBody = (status, message) => ({
  type: 'application/json',
  body: JSON.stringify({ error: STATUS_CODES[status], message, statusCode: status }),
});

export function clientErrorAnswer(shape: ClientErrorBody = PLAIN) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    // Reset: nobody is there to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request did not arrive in time']
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'the request headers are larger than this server takes']
          : [400, 'the request is not well-formed HTTP/1.1'];
    const { type, body } = shape(status, message);
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    socket.destroy(error);
  };
}
