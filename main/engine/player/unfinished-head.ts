/**
 * A request given up (its 10 s, a run's deadline) after the server had begun to answer: bytes
 * came, but never a whole status line and headers. The server is there and answered, wrongly (a
 * header a second, forever), which a conformance run must not call unreachable: only a server
 * that sent nothing at all is (docs/conformance.md).
 */
export class UnfinishedHead extends Error {
  constructor(
    reason: Error,
    /** Bytes of the answer's head that came before the request was given up. */
    readonly bytes: number,
  ) {
    super(reason.message, { cause: reason });
    this.name = 'UnfinishedHead';
  }
}
