/**
 * A `101 Switching Protocols` (or any upgrade) to a request that asked for none: the server
 * answered, with a protocol no player speaks. node:http hands such an answer to an 'upgrade'
 * listener, not as a response; with none, the request was left waiting until the run's deadline,
 * and a server that answered at once read as one that cannot be reached (audit Z1).
 */
export class UnaskedUpgrade extends Error {
  constructor(
    readonly status: number,
    readonly upgrade: string | undefined,
  ) {
    super(`the server switched protocols (${status})`);
  }
}
