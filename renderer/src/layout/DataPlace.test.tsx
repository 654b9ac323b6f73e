// @vitest-environment happy-dom
/**
 * The status bar says where the data is kept and what a restart keeps (audit-ui W15): nothing
 * for a console started `--ephemeral`, all but what lives in memory for a data dir.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataPlace } from './DataPlace';

afterEach(cleanup);

describe('DataPlace', () => {
  it('says an ephemeral console keeps nothing across a restart', () => {
    render(<DataPlace dataDir={null} />);
    expect(screen.getByText('In memory')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Where the data is kept' }).textContent).toMatch(
      /nothing is written\. A restart starts empty/,
    );
  });

  it('names the data dir, with a copy, and says what a restart keeps and what it does not', () => {
    render(<DataPlace dataDir="/home/me/.config/cloud-queue-console" />);
    expect(screen.getByText('Data dir', { selector: 'summary' })).toBeTruthy();
    const panel = screen.getByRole('group', { name: 'Where the data is kept' });
    expect(panel.textContent).toContain('/home/me/.config/cloud-queue-console');
    expect(screen.getByRole('button', { name: 'Copy the data dir' })).toBeTruthy();
    expect(panel.textContent).toMatch(/A restart on this folder finds .*queues .*the traffic log/);
    expect(panel.textContent).toMatch(/gone at a restart: fleets/);
  });

  it('opens from the shared host where the bar has no room for a chip of its own', () => {
    render(<DataPlace dataDir={null} host="127.0.0.1" />);
    const summary = screen.getByText('127.0.0.1', { selector: 'summary' });
    expect(summary.textContent).toContain('where the data is kept (in memory)');
    expect(screen.getByRole('group', { name: 'Where the data is kept' }).textContent).toMatch(
      /^Every listener binds to 127\.0\.0\.1, on this machine only\.Started with --ephemeral/,
    );
  });
});
