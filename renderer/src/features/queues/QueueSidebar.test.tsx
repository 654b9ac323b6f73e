// @vitest-environment happy-dom
/** While the queues are read, the list says so; "No queues yet" only once the engine said none (audit). */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderOverFakeEngine } from '../../testing/fake-engine';
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
