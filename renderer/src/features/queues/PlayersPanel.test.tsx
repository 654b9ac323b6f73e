// @vitest-environment happy-dom
/** A queue's players while they are read say so; "No player has called" only once the engine said none (audit). */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { PlayersPanel } from './PlayersPanel';

afterEach(cleanup);

const nothing = async () => ({ ok: false as const, error: { code: 'not_found' as const, message: 'none' } });
const render = (props: Partial<Parameters<typeof PlayersPanel>[0]>) =>
  renderOverFakeEngine(
    <PlayersPanel activity={undefined} colors={new Map()} onShowItem={() => undefined} {...props} />,
    nothing,
  );

describe("a queue's players panel", () => {
  it('says it is reading them before the engine answered', () => {
    render({});
    expect(screen.getByRole('status').textContent).toBe('Reading the players of this queue…');
    expect(screen.queryByText(/No player has called/)).toBeNull();
  });

  it('says why when they could not be read', () => {
    render({ error: 'engine unreachable' });
    expect(screen.getByText('The players of this queue could not be read: engine unreachable')).toBeTruthy();
  });

  it('says none called once the engine said so', () => {
    render({ activity: { queueId: 'q', players: [] } });
    expect(screen.getByText(/No player has called this queue yet/)).toBeTruthy();
  });

  it('lists a player known only by its stored report (after a restart) on that report’s item', () => {
    render({
      activity: {
        queueId: 'q',
        players: [
          {
            playerId: 'player-kitchen',
            playerName: 'Kitchen',
            lastRequest: { kind: 'timePlayed', at: 1_000, status: 204 },
            itemWindow: null,
            lastReport: {
              seq: 1,
              itemId: 'item-2',
              playerId: 'player-kitchen',
              receivedAt: 1_000,
              type: 'final',
              report: { durationPlayedMillis: 3_000, positionMillis: 3_000 } as never,
            },
            currentItemId: 'item-2',
          },
        ],
      },
    });
    expect(screen.getByRole('listitem', { name: /Kitchen/ }).textContent).toMatch(/On item-2/);
  });
});
