import { Placeholder } from '../../components/Placeholder';
import { useEngineState } from '../../queries/engine-state';
import { HouseholdEditor } from '../household/HouseholdEditor';

export function PlayerPage() {
  const { data } = useEngineState();
  return (
    <Placeholder title="Player">
      <p>The simulated players come here: each player's state on the state diagram, the timeline of transitions with their causes, now playing, the current window, the user buttons and a command bar for the control API.</p>
      {data && <HouseholdEditor state={data} />}
    </Placeholder>
  );
}
