// @vitest-environment happy-dom
/** While the queues are read, the list says so; "No queues yet" only once the engine said none (audit). */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { QUEUE_NAME_MAX_CHARS } from '@engine-api/queue-types';
import { QueueSidebar } from './QueueSidebar';

afterEach(cleanup);

const nothing = async () => ({ ok: false as const, error: { code: 'not_found' as const, message: 'none' } });

describe('the queue list while it is read', () => {
  it.each([
    [true, 'Reading the queues…'],
    [false, 'No queues yet.'],
  ])('loading %s: says %s', (loading, said) => {
    renderOverFakeEngine(
      <QueueSidebar queues={[]} loading={loading} selectedId={null} onSelect={() => undefined} />,
      nothing,
    );
    expect(screen.getByText(said)).toBeTruthy();
  });
});

describe('the new queue’s name', () => {
  it('takes no more characters than the engine does (audit-ui W11: the engine refused in its own words)', () => {
    renderOverFakeEngine(<QueueSidebar queues={[]} selectedId={null} onSelect={() => undefined} />, nothing);
    expect(screen.getByRole('textbox', { name: 'New queue name' }).getAttribute('maxlength')).toBe(
      String(QUEUE_NAME_MAX_CHARS),
    );
  });
});
