/**
 * A case's evidence. In the reports: the exchanges a failing or warning case rests on, masked and
 * cut (`caseEvidence`), with a curl that repeats the decisive request, so that a report read after
 * the console is gone still shows what was asked and what came back. In the console: the traffic
 * log ids of a run's requests. An entry gets its id when the recorder
 * writes its batch, so the run listens to the batches written while it runs and keeps the ids of
 * its own requests (by `X-Request-Id`); `idsOf` writes what is waiting first, so a settled case
 * names every entry it rests on. Traffic capture turned off leaves a case without ids. While a
 * run listens, the recorder builds each batch's summaries (what the UI's own stream leaves out):
 * a few seconds' worth, for the length of a run.
 */
import {
  MAX_CASE_EXCHANGES,
  MAX_EVIDENCE_BODY_BYTES,
  type ConformanceBody,
  type ConformanceCaseResult,
  type ConformanceExchange,
  type ConformanceOutcome,
} from '../api/conformance-types.js';
import { curlOf } from '../api/curl.js';
import { redactBody, redactHeaders, redactUrl } from '../api/redact.js';
import type { EventBus } from '../events/bus.js';
import { MADE_UP_TOKEN } from './made-up.js';
import { is2xx, requestLine, type Answer } from './server.js';

export class TrafficEvidence {
  private readonly wanted = new Set<string>();
  private readonly ids = new Map<string, number>();
  private readonly stop: () => void;

  constructor(
    bus: Pick<EventBus, 'on'>,
    private readonly flush: () => void,
  ) {
    this.stop = bus.on('traffic.captured', (batch) => {
      for (const entry of batch) {
        if (entry.target === 'player' && entry.requestId !== null && this.wanted.has(entry.requestId))
          this.ids.set(entry.requestId, entry.id);
      }
    });
  }

  /** A request of the run, about to be captured. */
  expect(requestId: string): void {
    this.wanted.add(requestId);
  }

  idsOf(answers: readonly Answer[]): number[] {
    this.flush();
    const ids = answers.map((answer) => this.ids.get(answer.exchange.requestId)).filter((id) => id !== undefined);
    return [...new Set(ids)].sort((a, b) => a - b);
  }

  close(): void {
    this.stop();
  }
}

/** What a failing or warning case carries into the reports: its exchanges, and a curl that repeats the decisive one. */
export function caseEvidence(
  outcome: ConformanceOutcome,
  message: string,
  answers: readonly Answer[],
): Pick<ConformanceCaseResult, 'exchanges' | 'exchangesLeftOut' | 'curl'> {
  if ((outcome !== 'fail' && outcome !== 'warn') || answers.length === 0) return {};
  const first = decisiveAnswer(message, answers);
  const rest = answers.filter((answer) => answer !== first);
  const kept = [first, ...rest.slice(0, MAX_CASE_EXCHANGES - 1)];
  return {
    exchanges: kept.map(exchangeOf),
    ...(answers.length > kept.length ? { exchangesLeftOut: answers.length - kept.length } : {}),
    curl: replayCurl(first),
  };
}

/**
 * The request a verdict turns on. The cases' messages name it by its request line (`GET
 * /itemWindow?…`), so it is the answer whose line the message names first; of several with that
 * line, the one whose status the message says it got. A message that names none (a walk's
 * finding) rests on the last answer that was not 2xx, else the last one.
 */
export function decisiveAnswer(message: string, answers: readonly Answer[]): Answer {
  let best: { at: number; line: string } | null = null;
  for (const answer of answers) {
    const line = requestLine(answer);
    const at = message.indexOf(line);
    // The longest line at the earliest place: `GET /version` is no match for `GET /versions…`.
    if (at !== -1 && (best === null || at < best.at || (at === best.at && line.length > best.line.length)))
      best = { at, line };
  }
  if (best) {
    const named = answers.filter((answer) => requestLine(answer) === best.line);
    const said = message.slice(best.at + best.line.length).split(';')[0]!;
    const got = (answer: Answer) => (answer.status === undefined ? 'no answer' : String(answer.status));
    return (
      named.find((answer) => said.includes(`got ${got(answer)}`)) ??
      named.find((answer) => new RegExp(`\\b${got(answer)}\\b`).test(said)) ??
      named.at(-1)!
    );
  }
  return answers.findLast((answer) => !is2xx(answer)) ?? answers.at(-1)!;
}

export function exchangeOf(answer: Answer): ConformanceExchange {
  const { exchange } = answer;
  return {
    method: exchange.method,
    url: redactUrl(exchange.url),
    ...(exchange.redirectedTo ? { redirectedTo: redactUrl(exchange.redirectedTo) } : {}),
    // An answer not read whole (over the byte cap, too deep) still came with its status.
    status: exchange.status ?? exchange.failure?.status ?? null,
    failure: answer.failure ?? null,
    requestHeaders: maskedHeaders(exchange.requestHeaders),
    requestBody: bodyOf(exchange.requestBody),
    responseHeaders: maskedHeaders(exchange.responseHeaders ?? {}),
    responseBody: exchange.status === undefined ? startOf(exchange) : bodyOf(exchange.responseBody, answer.bodyBytes),
    latencyMs: Math.round(exchange.latencyMs),
  };
}

function maskedHeaders(headers: Record<string, string>): Record<string, string> {
  const masked = redactHeaders(headers);
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'authorization' && MADE_UP_TOKEN.test(value)) masked[name] = value;
  return masked;
}

/** The first MAX_EVIDENCE_BODY_BYTES bytes of a body (never half a character), secrets masked; `bytes` is the whole body's size when `text` is its start. */
export function bodyOf(text: string | undefined, wholeBytes?: number): ConformanceBody | null {
  if (text === undefined || text === '') return null;
  const bytes = wholeBytes ?? Buffer.byteLength(text);
  if (bytes <= MAX_EVIDENCE_BODY_BYTES) return { text: redactBody(text) ?? '', bytes, cut: false };
  let kept = Buffer.from(text).subarray(0, MAX_EVIDENCE_BODY_BYTES).toString('utf8');
  // A character cut in two decodes as U+FFFD: it goes.
  if (kept.endsWith('\uFFFD') && !text.startsWith(kept)) kept = kept.slice(0, -1);
  return { text: redactBody(kept) ?? '', bytes, cut: true };
}

/** The start of an answer the client would not read whole, as it kept it: the rest was never read. */
function startOf(exchange: Answer['exchange']): ConformanceBody | null {
  if (exchange.failure?.status === undefined || !exchange.responseBody) return null;
  const body = bodyOf(exchange.responseBody);
  return body && { ...body, bytes: null, cut: true };
}

/**
 * curl for the decisive request: the run's own Authorization is written `"$AUTHORIZATION"`, for
 * the shell to take from the environment (a report never holds it in clear); the suite's made-up
 * token stays as it was.
 */
export function replayCurl(answer: Answer): string {
  const { method, url, requestHeaders, requestBody } = answer.exchange;
  const entries = Object.entries(requestHeaders);
  const authorization = entries.find(([name]) => name.toLowerCase() === 'authorization');
  const own = authorization !== undefined && !MADE_UP_TOKEN.test(authorization[1]);
  const headers = Object.fromEntries(
    own ? entries.filter(([name]) => name.toLowerCase() !== 'authorization') : entries,
  );
  const curl = curlOf(
    { method, url: redactUrl(url), headers, body: redactBody(requestBody ?? null) },
    { reveal: !own && authorization !== undefined },
  );
  // Followed as the player followed it (curl too drops the Authorization on another host).
  const followed = answer.exchange.redirectedTo ? curl.replace(/^curl /, 'curl -L ') : curl;
  if (!own) return followed;
  // With the other headers, before the body.
  const args = followed.split(' \\\n  ');
  const body = args.findIndex((arg) => arg.startsWith('--data-raw '));
  args.splice(body === -1 ? args.length : body, 0, '-H "Authorization: $AUTHORIZATION"');
  return args.join(' \\\n  ');
}
