// @vitest-environment happy-dom
/** A player with nothing loaded says where to load a queue, and takes the user there (outsider: the form is below the fold). */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlayerDetail } from '@engine-api/player-types';
import { CONTROL_COMMAND_FIELD, LOAD_QUEUE_FIELD } from './command-drafts';
import { NowPlaying } from './NowPlaying';

afterEach(cleanup);

const nothingLoaded = { track: null, state: 'IDLE', positionMillis: 0, at: 0 } as unknown as PlayerDetail;

describe('Now playing with nothing loaded', () => {
  it('focuses the form’s queue field when the form is on loadCloudQueue', () => {
    render(
      <>
        <NowPlaying detail={nothingLoaded} />
        <select id={CONTROL_COMMAND_FIELD} aria-label="command" />
        <select id={LOAD_QUEUE_FIELD} aria-label="queue" />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Control API form' }));
    expect(document.activeElement?.id).toBe(LOAD_QUEUE_FIELD);
  });

  it('focuses the command field when the form is on another command', () => {
    render(
      <>
        <NowPlaying detail={nothingLoaded} />
        <select id={CONTROL_COMMAND_FIELD} aria-label="command" />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Control API form' }));
    expect(document.activeElement?.id).toBe(CONTROL_COMMAND_FIELD);
  });
});
