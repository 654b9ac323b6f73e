import { Placeholder } from '../../components/Placeholder';

export function QueuesPage() {
  return (
    <Placeholder title="Queues">
      <p>The live queue editor of the reference cloud queue server comes here: queues and their items, playback policies and report intervals, the queue version as it changes, which item each player is on and the window it last fetched, and the timePlayed reports per item.</p>
    </Placeholder>
  );
}
