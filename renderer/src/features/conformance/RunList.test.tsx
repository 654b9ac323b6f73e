// @vitest-environment happy-dom
/** While the runs are read, the list says so; "No runs yet" only once the engine said none (audit). */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { RunList } from './RunList';

afterEach(cleanup);

const nothing = async () => ({ ok: false as const, error: { code: 'not_found' as const, message: 'none' } });

describe('the runs list while it is read', () => {
  it.each([
    [true, /^Reading the runs…$/],
    [false, /^No runs yet/],
  ])('loading %s: says %s', (loading, said) => {
    renderOverFakeEngine(
      <RunList runs={[]} loading={loading} selectedId={null} onSelect={() => undefined} focusRequest={0} />,
      nothing,
    );
    expect(screen.getByText(said)).toBeTruthy();
  });
});
