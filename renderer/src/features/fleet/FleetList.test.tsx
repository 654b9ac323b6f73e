// @vitest-environment happy-dom
/** While the kept fleets are read, the list says so; "None yet" only once the engine said none (audit). */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FleetList } from './FleetList';

afterEach(cleanup);

describe('the kept fleets while they are read', () => {
  it.each([
    [true, /^Reading the kept fleets…$/],
    [false, /^None yet/],
  ])('loading %s: says %s', (loading, said) => {
    render(<FleetList fleets={[]} loading={loading} shownId={null} onShow={() => undefined} />);
    expect(screen.getByText(said)).toBeTruthy();
  });
});
