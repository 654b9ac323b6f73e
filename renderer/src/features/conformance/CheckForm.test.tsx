// @vitest-environment happy-dom
/**
 * A console queue's token goes only to the console's own server: after picking a queue, a base
 * URL typed for another server drops it, and says so (audit: it was sent to the other server).
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueSummary } from '@engine-api/queue-types';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { useClockStore } from '../../stores/clock';
import { CheckForm } from './CheckForm';

afterEach(() => {
  cleanup();
  useClockStore.setState({ clock: null });
});

const queue: QueueSummary = {
  id: 'queue-1',
  name: 'Mine',
  queueVersion: '1',
  contextVersion: '1',
  itemCount: 3,
  createdAt: 0,
  queueBaseUrl: 'http://127.0.0.1:47103/queues/queue-1/v2.3/',
  accessToken: 'tok-secret',
  accessTokenExpiresAt: 0,
  httpAuthorization: 'Bearer tok-secret',
};

describe('CheckForm', () => {
  it("takes a queue's token out when the base URL leaves the console's server, and keeps it on its path", async () => {
    const user = userEvent.setup();
    const started: unknown[] = [];
    renderOverFakeEngine(<CheckForm onStarted={() => undefined} />, async (name, input) => {
      if (name === 'queues.list') return { ok: true, value: [queue] as never };
      if (name === 'conformance.runs.start') {
        started.push(input);
        return { ok: true, value: { id: 'run-1' } as never };
      }
      return { ok: false, error: { code: 'not_found' as const, message: name } };
    });
    await waitFor(() => expect(screen.getByRole('option', { name: /Mine/ })).toBeTruthy());
    await user.selectOptions(screen.getByRole('combobox'), 'queue-1');
    const baseUrl = screen.getByLabelText('Base URL') as HTMLInputElement;
    const authorization = () => (document.getElementById('check-authorization') as HTMLInputElement).value;
    expect(authorization()).toBe('Bearer tok-secret');

    // Its own path, edited: the same server, the token stays.
    await user.type(baseUrl, '?x=1');
    expect(authorization()).toBe('Bearer tok-secret');

    await user.clear(baseUrl);
    await user.type(baseUrl, 'https://queue.example.com/v2.3/');
    expect(authorization()).toBe('');
    expect(screen.getByText(/The token of the queue “Mine” was taken out/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Run checks' }));
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0]).toEqual({ baseUrl: 'https://queue.example.com/v2.3/' });
  });

  it('does not start a second check of a server one is going on against, and shows the way to it (ui-x3 U6)', async () => {
    const user = userEvent.setup();
    const started: unknown[] = [];
    const shown: string[] = [];
    const running = {
      id: 'run-going',
      baseUrl: 'https://queue.example.com/v2.3/',
      authorization: null,
      rerunNeedsAuthorization: false,
      status: 'running',
      startedAt: 0,
      finishedAt: null,
      summary: { total: 23, pass: 3, fail: 0, warn: 0, skip: 0 },
      error: null,
      rerunOf: null,
    };
    renderOverFakeEngine(<CheckForm onStarted={(id) => shown.push(id)} />, async (name, input) => {
      if (name === 'queues.list') return { ok: true, value: [] as never };
      if (name === 'conformance.runs.list') return { ok: true, value: [running] as never };
      if (name === 'conformance.runs.start') {
        started.push(input);
        return { ok: true, value: { id: 'run-2' } as never };
      }
      return { ok: false, error: { code: 'not_found' as const, message: name } };
    });
    const baseUrl = screen.getByLabelText('Base URL') as HTMLInputElement;
    // The same server, written otherwise: the host's case, no trailing slash (review).
    await user.type(baseUrl, 'https://QUEUE.example.com/v2.3');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Run checks' })).toBeTruthy());
    await user.click(screen.getByRole('button', { name: 'Run checks' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/A check of this server is going on/));
    expect(started).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Show it' }));
    expect(shown).toEqual(['run-going']);
    // Another server starts at once.
    await user.clear(baseUrl);
    await user.type(baseUrl, 'https://other.example.com/v2.3/');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Run checks' }));
    await waitFor(() => expect(started).toEqual([{ baseUrl: 'https://other.example.com/v2.3/' }]));
  });

  it("says a queue's token expired, and makes a new one that the run then sends (audit-ui W8)", async () => {
    const user = userEvent.setup();
    useClockStore.getState().setClock({ now: 90_000_000, speed: 0 });
    let current: QueueSummary = { ...queue, accessTokenExpiresAt: 86_400_000 };
    const issued: unknown[] = [];
    renderOverFakeEngine(<CheckForm onStarted={() => undefined} />, async (name, input) => {
      if (name === 'queues.list') return { ok: true, value: [current] as never };
      if (name === 'queues.token.issue') {
        issued.push(input);
        current = {
          ...current,
          accessToken: 'tok-new',
          httpAuthorization: 'Bearer tok-new',
          accessTokenExpiresAt: 200_000_000,
        };
        return { ok: true, value: current as never };
      }
      return { ok: false, error: { code: 'not_found' as const, message: name } };
    });
    await waitFor(() => expect(screen.getByRole('option', { name: /Mine/ })).toBeTruthy());
    await user.selectOptions(screen.getByRole('combobox'), 'queue-1');
    expect(screen.getByRole('alert').textContent).toMatch(
      /The token of the queue “Mine” expired .* ago \(engine time\)/,
    );
    await user.click(screen.getByRole('button', { name: 'New token' }));
    expect(issued).toEqual([{ id: 'queue-1' }]);
    await waitFor(() =>
      expect((document.getElementById('check-authorization') as HTMLInputElement).value).toBe('Bearer tok-new'),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
