// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LineChart } from './LineChart';

afterEach(cleanup);

describe('a fleet chart', () => {
  it('says each series now and at its peak: a ramp over reads 0 now, not 0 in all (ui-x3 U12)', () => {
    render(
      <LineChart
        title="Requests per second"
        unit="/s"
        series={[{ name: 'requests', values: [0, 12, 42, 7, 0], color: 'red' }]}
      />,
    );
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Requests per second: requests 0 now, at most 42; axis up to 50/s',
    );
    expect(document.querySelector('li')?.textContent).toBe('requests 0 now · peak 42');
  });
});
