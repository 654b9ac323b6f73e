/**
 * A case's evidence as plain text, for the JUnit report's output (CI viewers show it as it is):
 * the curl that repeats the decisive request, then each exchange with its headers and the start of
 * its bodies, as the run kept them (secrets masked, bodies cut at 4 KB and said to be).
 */
import { bodyNote, exchangeOutcome } from '../../api/conformance-text.js';
import type { ConformanceCaseResult, ConformanceExchange } from '../../api/conformance-types.js';

export const AUTHORIZATION_NOTE =
  'the Authorization the run sent is not in the report: set AUTHORIZATION in the environment first';

export function evidenceText(result: ConformanceCaseResult): string {
  const exchanges = result.exchanges ?? [];
  if (exchanges.length === 0) return '';
  const parts: string[] = [];
  if (result.curl)
    parts.push(
      `Repeat the decisive request${result.curl.includes('$AUTHORIZATION') ? ` (${AUTHORIZATION_NOTE})` : ''}:\n${result.curl}`,
    );
  exchanges.forEach((exchange, index) =>
    parts.push(`${index === 0 ? 'Decisive exchange' : `Exchange ${index + 1}`}: ${exchangeText(exchange)}`),
  );
  if (result.exchangesLeftOut) parts.push(`… and ${result.exchangesLeftOut} more exchanges, not kept in the report`);
  return parts.join('\n\n');
}

/** `GET http://… → 404 (12 ms)`, or `→ no answer (why)`; a redirect followed names the URL that answered. */
export function exchangeLine(exchange: ConformanceExchange): string {
  const via = exchange.redirectedTo ? ` → redirected to ${exchange.redirectedTo}` : '';
  return `${exchange.method} ${exchange.url}${via} → ${exchangeOutcome(exchange)} (${exchange.latencyMs} ms)`;
}

function exchangeText(exchange: ConformanceExchange): string {
  return [exchangeLine(exchange), ...exchangeLines(exchange)].join('\n');
}

/** An exchange's headers and bodies, a line each (`> ` sent, `< ` answered), as the report keeps them. */
export function exchangeLines(exchange: ConformanceExchange): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(exchange.requestHeaders)) lines.push(`> ${name}: ${value}`);
  if (exchange.requestBody) lines.push(`> (body, ${bodyNote(exchange.requestBody)})`, exchange.requestBody.text);
  for (const [name, value] of Object.entries(exchange.responseHeaders)) lines.push(`< ${name}: ${value}`);
  if (exchange.responseBody) lines.push(`< (body, ${bodyNote(exchange.responseBody)})`, exchange.responseBody.text);
  return lines;
}
