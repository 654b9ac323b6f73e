/**
 * A failed expectation's explanation as text, for the terminal and the JUnit message: the expected
 * and the actual transitions in two aligned columns from a little before the first difference,
 * then the player's exchanges around it. Paths, reasons and rule labels came from servers and
 * files: every control character is replaced before it reaches a terminal or an XML report.
 */
import type {
  EndSubject,
  ExpectationExplanation,
  ExplainedExchange,
  ExplanationRow,
} from '../engine/api/expectation-types.js';
import { engineSpan, plain } from './steps.js';

const MARK: Record<ExplanationRow['mark'], string> = { same: ' ', 'passed-over': '~', differs: '≠' };
const NOTHING = '(nothing)';

/**
 * The explanation as lines (no line breaks in them), engine times counted from `startedAt`:
 *
 * ```
 *   expected              actual
 *   load-begins           load-begins            +00:00:00.000  IDLE → BUFFERING
 * ≠ background-exhausted  (nothing)
 * exchanges of player-kitchen around the first difference (>: the one it hangs on):
 * > +00:10:00.000  GET /q/v2.3/version  no reason  503  rule "503 storm" (fault-1 at cloudQueue: status 503)
 * ```
 */
export function explanationLines(explanation: ExpectationExplanation, startedAt: number): string[] {
  const time = (at: number) => `+${engineSpan(at - startedAt)}`;
  const rows = explanation.rows;
  const width = Math.max('expected'.length, ...rows.map((row) => plain(row.expected ?? '').length));
  const actualWidth = Math.max(
    'actual'.length,
    NOTHING.length,
    ...rows.map((row) => plain(row.actual?.transition ?? '').length),
  );
  const lines: string[] = [`  ${'expected'.padEnd(width)}  actual`];
  if (explanation.omitted.before)
    lines.push(`  … ${explanation.omitted.before} earlier ${rows_(explanation.omitted.before)} met as expected`);
  for (const row of rows) {
    const expected = row.expected === null ? '' : plain(row.expected);
    const actual = row.actual
      ? `${plain(row.actual.transition).padEnd(actualWidth)}  ${time(row.actual.at)}  ${row.actual.from} → ${row.actual.to}`
      : NOTHING;
    const first = row.first ? '  ← first difference' : '';
    lines.push(`${MARK[row.mark]} ${expected.padEnd(width)}  ${actual}${first}`.trimEnd());
  }
  if (explanation.omitted.after)
    lines.push(`  … ${explanation.omitted.after} more ${rows_(explanation.omitted.after)}`);
  const subject = explanation.subject;
  if (subject && !rows.length) lines.push(`  ${NOTHING}: no transition since its previous check`);
  if (rows.some((row) => row.mark === 'passed-over'))
    lines.push(
      subject
        ? '  (~: a transition the expectation does not list, which it lets pass)'
        : '  (~: a transition between two expected ones, which an expectation lets pass)',
    );
  if (subject) lines.push(`  (the transitions were met: the check failed on ${SUBJECT[subject]})`);

  lines.push(
    subject
      ? `exchanges of ${plain(explanation.playerId)} up to the check (>: ${endMark(explanation, subject)}):`
      : `exchanges of ${plain(explanation.playerId)} around the first difference (>: the one it hangs on):`,
  );
  if (!explanation.exchanges.length) {
    lines.push(`  none: ${plain(explanation.exchangesNote ?? 'no requests in this span')}`);
    return lines;
  }
  if (explanation.exchangesOmitted.before) lines.push(`  … ${explanation.exchangesOmitted.before} earlier`);
  const cells = explanation.exchanges.map((exchange) => exchangeCells(exchange, time));
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  for (const [i, row] of cells.entries()) {
    const mark = explanation.exchanges[i]!.anchor ? '>' : ' ';
    lines.push(`${mark} ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd());
  }
  if (explanation.exchangesOmitted.after) lines.push(`  … ${explanation.exchangesOmitted.after} later`);
  return lines;
}

const rows_ = (n: number) => (n === 1 ? 'row' : 'rows');

/** What the `>` of a check of where a player ended, or of its requests, marks. */
function endMark(explanation: ExpectationExplanation, subject: EndSubject): string {
  if (subject === 'requests')
    return explanation.exchanges.some((exchange) => exchange.anchor) ? 'the first that failed' : 'none failed';
  const last = explanation.rows.at(-1)?.actual?.transition;
  const anchor = explanation.exchanges.find((exchange) => exchange.anchor);
  return last !== undefined && anchor?.caused.includes(last)
    ? `the answer its ${subject} came from`
    : `the last before the check: no answer made its last transition`;
}

const SUBJECT: Record<EndSubject, string> = {
  state: 'where it ended, its state',
  item: 'where it ended, its item',
  requests: 'the requests it made',
};

/** Time, request, reason, what came of it, the rule that acted, what it caused. */
function exchangeCells(exchange: ExplainedExchange, time: (at: number) => string): string[] {
  const status =
    exchange.status !== null
      ? String(exchange.status)
      : exchange.outcome === 'answered'
        ? 'answered'
        : exchange.outcome;
  const fault = exchange.fault;
  const where = fault && `at ${fault.target}: ${fault.action}${fault.status ? ` ${fault.status}` : ''}`;
  const rule = !fault
    ? 'no rule'
    : fault.label
      ? `rule "${plain(fault.label)}" (${plain(fault.ruleId)} ${where})`
      : `rule ${plain(fault.ruleId)} (${where})`;
  return [
    time(exchange.at),
    `${plain(exchange.method)} ${plain(exchange.path)}`,
    exchange.reason === null ? 'no reason' : `reason=${plain(exchange.reason)}`,
    `${status}${exchange.retry ? ` (retry ${exchange.retry})` : ''}`,
    rule,
    exchange.caused.length ? `→ ${exchange.caused.map(plain).join(', ')}` : '',
  ];
}
