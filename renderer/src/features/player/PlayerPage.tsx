import { Placeholder } from '../../components/Placeholder';
import { useEngineState } from '../../queries/engine-state';

export function PlayerPage() {
  const { data } = useEngineState();
  return (
    <Placeholder title="Player">
      <p>The simulated players come here: each player's state on the state diagram, the timeline of transitions with their causes, now playing, the current window, the user buttons and a command bar for the control API.</p>
      {data && (
        <table className="table">
          <caption>Players of {data.households.map((h) => h.name).join(', ')}</caption>
          <thead>
            <tr>
              <th scope="col">Player</th>
              <th scope="col">Group</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {data.players.map((player) => (
              <tr key={player.id}>
                <td>{player.name}</td>
                <td>{data.groups.find((g) => g.id === player.groupId)?.name}</td>
                <td>
                  <span className="badge" data-state={player.playbackState}>
                    {player.playbackState.replace('PLAYBACK_STATE_', '')}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Placeholder>
  );
}
