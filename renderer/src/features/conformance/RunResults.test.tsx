// @vitest-environment happy-dom
/**
 * A run's results read failures first, then warnings, each with its one sentence and its curl;
 * the whole table under them, folded when a case failed, open when none did.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConformanceCaseResult, ConformanceOutcome } from '@engine-api/conformance-types';
import { caseInfos } from '../../../../main/engine/conformance/suite';
import { caseRows } from './grouping';
import { RunResults } from './RunResults';

afterEach(cleanup);

const suite = caseInfos();

function settled(
  id: string,
  outcome: ConformanceOutcome,
  extra: Partial<ConformanceCaseResult> = {},
): ConformanceCaseResult {
  const info = suite.find((c) => c.id === id)!;
  return { ...info, outcome, message: `${id}: expected this, got that`, trafficIds: [7], durationMs: 3, ...extra };
}

function show(cases: ConformanceCaseResult[]) {
  const rows = caseRows(suite, { status: 'failed', cases });
  const root = createRootRoute({ component: () => <RunResults rows={rows} /> });
  const router = createRouter({
    routeTree: root.addChildren([createRoute({ getParentRoute: () => root, path: '/traffic' })]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(<RouterProvider router={router as never} />);
}

describe('the results of a run', () => {
  it('lists failures first, then warnings, each with its sentence and curl; the table folded under them', async () => {
    const everyPass = suite.map((c) => settled(c.id, 'pass'));
    const at = (id: string) => suite.findIndex((c) => c.id === id);
    everyPass[at('context')] = settled('context', 'warn', { message: 'the context has no playbackPolicies' });
    everyPass[at('version')] = settled('version', 'fail', {
      message: 'GET /version: expected "v1", got "v2"; and another finding',
      curl: `curl 'http://127.0.0.1:9/q/version' \\\n  -H "Authorization: $AUTHORIZATION"`,
      exchanges: [
        {
          method: 'GET',
          url: 'http://127.0.0.1:9/q/version',
          status: 200,
          failure: null,
          requestHeaders: { authorization: 'Bearer abcd•••' },
          requestBody: null,
          responseHeaders: {},
          responseBody: { text: '{"queueVersion":"v2"}', bytes: 21, cut: false },
          latencyMs: 3,
        },
      ],
    });
    everyPass[at('item-window.unknown-item')] = settled('item-window.unknown-item', 'fail');
    show(everyPass);

    const findings = await screen.findByRole('region', { name: 'Failures and warnings' });
    const items = [...findings.querySelectorAll<HTMLElement>('ol > li[data-case-id]')];
    // Failures in suite order, then the warning, though the warning's case came first.
    expect(items.map((item) => `${item.getAttribute('data-outcome')} ${item.getAttribute('data-case-id')}`)).toEqual([
      'fail item-window.unknown-item',
      'fail version',
      'warn context',
    ]);
    expect(within(findings).getByRole('heading').textContent).toBe('2 failures and 1 warning');
    const version = items[1]!;
    expect(version.textContent).toContain('GET /version: expected "v1", got "v2"');
    // The first finding once, bold; the findings after it under it (audit-ui W14: it came twice).
    expect(version.textContent!.split('GET /version: expected "v1", got "v2"')).toHaveLength(2);
    expect(within(version).getByText('and another finding')).toBeTruthy();
    expect(within(version).getByLabelText('curl of version').textContent).toContain(
      '-H "Authorization: $AUTHORIZATION"',
    );
    expect(within(version).getByRole('button', { name: 'Copy the curl of version' })).toBeTruthy();
    expect(version.querySelector('details summary')!.textContent).toBe(
      'Decisive exchange: GET http://127.0.0.1:9/q/version → 200',
    );
    // One exchange: nothing more to fold.
    expect(within(version).queryByText(/more exchanges? behind it/)).toBeNull();

    const fold = screen.getByText(/^All \d+ cases by contract section/).closest('details')!;
    expect(fold.open).toBe(false);
    expect(fold.textContent).toContain(`${suite.length - 3} passed, 0 skipped`);
    expect(findings.compareDocumentPosition(fold) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('folds the exchanges after the decisive one under one line: one Tab stop, not one each (ui-x3 U18)', async () => {
    const exchange = (n: number) => ({
      method: 'GET',
      url: `http://127.0.0.1:9/q/itemWindow?n=${n}`,
      status: 200,
      failure: null,
      requestHeaders: {},
      requestBody: null,
      responseHeaders: {},
      responseBody: null,
      latencyMs: 1,
    });
    const results = suite.map((c) => settled(c.id, 'pass'));
    results[suite.findIndex((c) => c.id === 'item-window.ids')] = settled('item-window.ids', 'fail', {
      exchanges: [1, 2, 3, 4, 5, 6, 7, 8].map(exchange),
    });
    show(results);
    const findings = await screen.findByRole('region', { name: 'Failures and warnings' });
    const card = findings.querySelector<HTMLElement>('li[data-case-id="item-window.ids"]')!;
    const summaries = [...card.querySelectorAll('summary')].map((summary) => summary.textContent);
    expect(summaries[0]).toBe('Decisive exchange: GET http://127.0.0.1:9/q/itemWindow?n=1 → 200');
    expect(summaries[1]).toBe('7 more exchanges behind it');
    // Folded: the seven are inside the one disclosure, closed.
    const more = within(card).getByText('7 more exchanges behind it').closest('details')!;
    expect(more.open).toBe(false);
    expect(more.querySelectorAll('details')).toHaveLength(7);
  });

  it('shows no findings and leaves the table open when every case passed', async () => {
    show(suite.map((c) => settled(c.id, 'pass')));
    const fold = (await screen.findByText(/^All \d+ cases by contract section/)).closest('details')!;
    expect(fold.open).toBe(true);
    expect(screen.queryByRole('region', { name: 'Failures and warnings' })).toBeNull();
  });
});
