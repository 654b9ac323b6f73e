/**
 * Whether there is a cloud queue to check at the base URL at all (docs/contract/console.md §8),
 * asked once the first case has settled: a server that answers nothing (no connection, no answer
 * within 10 s), or a URL with nothing at `context` nor at `itemWindow` (a 404, an HTML page: a
 * server's root, the console's own cloud queue listener, a typo in the path), ends the run with
 * one message instead of cases that would judge a server that is not there.
 */
import { BASE_URL_EXAMPLE } from '../api/conformance-text.js';
import { FIRST_WINDOW_ASK } from './cases/window.js';
import type { Answer, CheckedServer } from './server.js';

/**
 * Why the run cannot go on, or null when there is a server to check. `answers` are the first
 * case's; one more GET /itemWindow (without itemId, as a load asks) decides.
 */
export async function noQueueBecause(server: CheckedServer, answers: readonly Answer[]): Promise<string | null> {
  if (answers.length === 0) return null;
  if (!answers.some(answered)) {
    const probe = await server.itemWindow(FIRST_WINDOW_ASK);
    return answered(probe) ? null : `cannot reach the cloud queue server at ${server.baseUrl}: ${answers[0]!.failure}`;
  }
  if (answers.every(nothingThere)) {
    const probe = await server.itemWindow(FIRST_WINDOW_ASK);
    // Only nothing at all: a queue whose itemWindow refuses an unknown item is a server to judge.
    return nothingThere(probe) ? notAQueue(server.baseUrl, answers[0]!, probe) : null;
  }
  return null;
}

/**
 * Why the run cannot go on when its deadline passed before anything answered: the first case's
 * requests (and the probe after them) had no answer at all. Null when one answered.
 */
export function silentUntil(baseUrl: string, answers: readonly Answer[], deadline: string): string | null {
  if (answers.some(answered)) return null;
  // None heard at all (still waiting past the guard of `settled`): no answer either.
  const first = answers[0]?.failure ?? 'no answer';
  const why =
    first.includes(deadline) || answers.length === 0
      ? `no answer before ${deadline}`
      : `${first}, and nothing else answered before ${deadline}`;
  return `cannot reach the cloud queue server at ${baseUrl}: ${why}`;
}

/**
 * An HTTP answer came, complete or not: one over the byte cap, one whose status line came and
 * whose body then did not end, or one no client reads (80 KB of headers, a redirect loop) still
 * came from a server, whose cases then say what is wrong with it.
 */
function answered(answer: Answer): boolean {
  return (
    answer.status !== undefined ||
    answer.exchange.failure?.status !== undefined ||
    answer.exchange.failure?.unreadable === true ||
    answer.exchange.responseHeaders !== undefined
  );
}

/** Nothing there: gone (404, 410), or a web page where a queue would answer JSON. */
function nothingThere(answer: Answer): boolean {
  return answer.status === 404 || answer.status === 410 || (answer.status !== undefined && isHtml(answer));
}

/**
 * A web page: labelled text/html, and not JSON. A server that labels its JSON text/html (a
 * framework's default) is a server to judge, not a missing queue: it was told "a web page", exit
 * 2, while the same JSON labelled text/plain passed (audit).
 */
function isHtml(answer: Answer): boolean {
  return /^\s*text\/html/i.test(answer.exchange.responseHeaders?.['content-type'] ?? '') && answer.json === undefined;
}

function notAQueue(baseUrl: string, context: Answer, itemWindow: Answer): string {
  const said = (answer: Answer) => `${answer.status}${isHtml(answer) ? ' with a web page' : ''}`;
  const root = URL.canParse(baseUrl) && new URL(baseUrl).pathname === '/' ? " (a server's root is not a queue)" : '';
  return (
    `${baseUrl} is not a cloud queue's base URL${root}: GET context answered ${said(context)} and GET itemWindow ${said(itemWindow)}. ` +
    `BASE_URL is the queueBaseUrl your loadCloudQueue sends, the URL the player appends context, itemWindow, version and timePlayed to, such as ${BASE_URL_EXAMPLE}`
  );
}
