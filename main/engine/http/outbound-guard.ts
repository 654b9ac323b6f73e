/**
 * A gate on the requests the engine sends out (a player's cloud queue calls, event deliveries):
 * `run FILE` in CI lets them reach only the console's own listeners and the hosts `--allow-host`
 * names (docs/contract/console.md §9). The file's literal URLs are refused before it runs; this
 * catches the ones it builds as it goes (a value saved from an answer, then sent as a
 * queueBaseUrl), at the moment one would leave.
 */

/** Why a request to `url` may not go out; null when it may. */
export type OutboundPolicy = (url: URL) => string | null;

/** The error a refused request fails with: a connection that was never made, and why. */
export class OutboundRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'OutboundRefused';
    // Said as the cause of a failed connection, as the clients word one.
    (this as { cause?: unknown }).cause = { message: reason };
  }
}

/** `transport`, refusing what `policy` refuses before anything is sent. */
export function guardedTransport<Request extends { url: string }, Answer>(
  transport: (request: Request) => Promise<Answer>,
  policy: OutboundPolicy | undefined,
): (request: Request) => Promise<Answer> {
  if (!policy) return transport;
  return async (request) => {
    const refused = URL.canParse(request.url) ? policy(new URL(request.url)) : null;
    if (refused !== null) throw new OutboundRefused(refused);
    return transport(request);
  };
}
