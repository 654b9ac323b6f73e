/**
 * How a conformance exchange reads in words, the same in the JUnit and HTML reports, the terminal
 * and the console's Findings: what came back, and how much of a body the report holds.
 */
import type { ConformanceBody, ConformanceExchange } from './conformance-types.js';

/** `404`; `200, but the answer was over 1 MB … and was cut there`; `no answer (why)`. */
export function exchangeOutcome(exchange: Pick<ConformanceExchange, 'status' | 'failure'>): string {
  if (exchange.status === null) return `no answer (${exchange.failure ?? 'none came'})`;
  return exchange.failure ? `${exchange.status}, but ${exchange.failure}` : String(exchange.status);
}

/** `312 bytes`; `the first 4096 of 20480 bytes`; `the first 4096 bytes` of one cut at the byte cap. */
export function bodyNote(body: ConformanceBody): string {
  const held = new TextEncoder().encode(body.text).length;
  if (body.bytes === null) return `the first ${held} bytes; the rest was not read`;
  return body.cut ? `the first ${held} of ${body.bytes} bytes` : `${body.bytes} bytes`;
}

/** What a cloud queue's base URL looks like, in the messages of a run that found none. */
export const BASE_URL_EXAMPLE = 'https://cloudqueue.example.com/queues/{queueId}/v2.3/';

/**
 * The first finding of a message (findings are joined by `; `): what was expected and what came
 * back, in one sentence. A `; ` inside parentheses belongs to that finding (audit: a warning's
 * headline was cut at "(expected an https URL on a public address", its parenthesis left open).
 */
export function firstFinding(message: string): string {
  let depth = 0;
  for (let i = 0; i < message.length; i++) {
    const c = message[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0 && message[i + 1] === ' ') return message.slice(0, i);
  }
  return message;
}
