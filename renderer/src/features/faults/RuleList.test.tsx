// @vitest-environment happy-dom
/**
 * Moving a rule by keyboard over a fake engine whose answer to `faults.move` arrives when the test
 * lets it. The pushed order usually lands first (CI saw it): the row is at the top, its Up button
 * disabled, and the cursor must already be on the row's Down button, or the next Alt+↓ falls on
 * the page and does nothing.
 */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultRuleView } from '@engine-api/fault-types';
import { faultKeys } from '../../queries/faults';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { RuleList } from './RuleList';

afterEach(cleanup);

function rule(id: string, label: string): FaultRuleView {
  return {
    id,
    label,
    target: 'cloudQueue',
    match: { path: '/itemWindow' },
    action: { type: 'status', status: 503 },
    hits: 0,
    passes: 0,
    spent: false,
    createdAt: 0,
    shadowedBy: null,
    shadow: null,
    warning: null,
  };
}

/** `answered`: what the engine answers a move with, from the order it made (another change can land with it). */
function renderList(rules: FaultRuleView[], answered: (order: FaultRuleView[]) => FaultRuleView[] = (order) => order) {
  const held: (() => void)[] = [];
  let order = rules;
  const { queryClient } = renderOverFakeEngine(<RuleList />, async (name, input) => {
    if (name === 'faults.list') return { ok: true, value: order as never };
    if (name === 'faults.move') {
      const { id, toIndex } = input as { id: string; toIndex: number };
      const moved = order.find((r) => r.id === id)!;
      const rest = order.filter((r) => r.id !== id);
      order = [...rest.slice(0, toIndex), moved, ...rest.slice(toIndex)];
      order = answered(order);
      const answer = order;
      await new Promise<void>((release) => held.push(release));
      return { ok: true, value: answer as never };
    }
    return { ok: false, error: { code: 'not_found', message: name } };
  });
  // What the engine's `faults.changed` push does to the cache (queries/faults.ts); `stale`: a
  // push made before the last move, arriving after it.
  const push = (stale?: FaultRuleView[]) =>
    act(async () => void queryClient.setQueryData(faultKeys.rules, stale ?? order));
  return { held, push };
}

const button = (name: RegExp) => screen.getByRole('button', { name });

describe('the fault rule list', () => {
  it('keeps the cursor on a rule moved to the top by Alt+↑ before the move is answered', async () => {
    const user = userEvent.setup();
    const { held, push } = renderList([rule('fault-a', 'storm'), rule('fault-b', 'refresh 404')]);
    await waitFor(() => expect(screen.getAllByTestId('rule-position')).toHaveLength(2));

    button(/^Move refresh 404 \(fault-b\) up$/).focus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    await waitFor(() => expect(held).toHaveLength(1));
    await push();

    const row = screen.getByRole('row', { name: 'refresh 404' });
    const position = () => row.querySelector('[data-testid="rule-position"]')?.textContent;
    // The cache tells React on its next tick; the focus is checked in the render that moved it.
    await waitFor(() => expect(position()).toBe('1'));
    expect(document.activeElement).toBe(button(/^Move refresh 404 \(fault-b\) down$/));

    // The next key moves it back at once, the first answer still on its way.
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    await waitFor(() => expect(held).toHaveLength(2));
    await push();
    await waitFor(() => expect(position()).toBe('2'));
    expect(document.activeElement).toBe(button(/^Move refresh 404 \(fault-b\) up$/));
    await act(async () => held.splice(0).forEach((release) => release()));
  });

  it('keeps the cursor on the row through a push that brings the old order back after the answer', async () => {
    const user = userEvent.setup();
    const before = [rule('fault-a', 'storm'), rule('fault-b', 'refresh 404')];
    const { held, push } = renderList(before);
    await waitFor(() => expect(screen.getAllByTestId('rule-position')).toHaveLength(2));
    const row = () => screen.getByRole('row', { name: 'refresh 404' });
    const position = () => row().querySelector('[data-testid="rule-position"]')?.textContent;

    button(/^Move refresh 404 \(fault-b\) up$/).focus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    await waitFor(() => expect(held).toHaveLength(1));
    // The answer first, then a push of hits made before the move, then the push of the move.
    await act(async () => held.splice(0).forEach((release) => release()));
    await waitFor(() => expect(position()).toBe('1'));
    await act(() => new Promise((done) => setTimeout(done, 50)));
    await push(before);
    await waitFor(() => expect(position()).toBe('2'));
    // Back at the bottom for a moment: its Down is disabled, the cursor is on its Up.
    expect(document.activeElement).toBe(button(/^Move refresh 404 \(fault-b\) up$/));
    await push();
    await waitFor(() => expect(position()).toBe('1'));
    expect(document.activeElement).toBe(button(/^Move refresh 404 \(fault-b\) down$/));
  });

  it('lets the cursor go a moment after the move: a later push leaves it where the user put it', async () => {
    const user = userEvent.setup();
    // A rule added elsewhere lands with the move: the moved one never sits at the index asked for.
    const { held, push } = renderList(
      [rule('fault-a', 'storm'), rule('fault-b', 'refresh 404'), rule('fault-c', 'c')],
      (order) => [rule('fault-x', 'added elsewhere'), ...order],
    );
    await waitFor(() => expect(screen.getAllByTestId('rule-position')).toHaveLength(3));
    button(/^Move refresh 404 \(fault-b\) up$/).focus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    await waitFor(() => expect(held).toHaveLength(1));
    await act(async () => held.splice(0).forEach((release) => release()));
    await waitFor(() => expect(screen.getAllByTestId('rule-position')).toHaveLength(4));
    await act(() => new Promise((done) => setTimeout(done, 1_200)));
    (document.activeElement as HTMLElement).blur();
    // Another rule is removed elsewhere: the list changes, the cursor stays on the page.
    await push([rule('fault-x', 'added elsewhere'), rule('fault-b', 'refresh 404'), rule('fault-a', 'storm')]);
    await waitFor(() => expect(screen.getAllByTestId('rule-position')).toHaveLength(3));
    expect(document.activeElement).toBe(document.body);
  });
});

describe('Clear all', () => {
  it('asks first: one click arms it, clears nothing, and a second past the guard clears (audit)', async () => {
    const user = userEvent.setup();
    const calls: string[] = [];
    renderOverFakeEngine(<RuleList />, async (name) => {
      calls.push(name);
      if (name === 'faults.list') return { ok: true, value: [rule('fault-a', 'storm'), rule('fault-b', 'b')] as never };
      if (name === 'faults.clear') return { ok: true, value: { removed: 2 } as never };
      return { ok: false, error: { code: 'not_found', message: name } };
    });
    await waitFor(() => expect(screen.getAllByTestId('rule-position')).toHaveLength(2));
    await user.click(button(/^Clear all$/));
    expect(calls).not.toContain('faults.clear');
    const confirm = button(/^Confirm: remove all 2 rules$/);
    // A double click is not a decision: a press within the guard does nothing.
    await user.click(confirm);
    expect(calls).not.toContain('faults.clear');
    await act(() => new Promise((done) => setTimeout(done, 450)));
    await user.click(confirm);
    await waitFor(() => expect(calls).toContain('faults.clear'));
    // The button goes off with the rules: the cursor goes to the list's heading, not to the page.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Active rules' })));
  });
});
