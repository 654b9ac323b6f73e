import { Placeholder } from '../../components/Placeholder';

export function TrafficPage() {
  return (
    <Placeholder title="Traffic">
      <p>The traffic log comes here: every exchange at the four servers and every request the player makes, with engine time, reason, status, latency, retry number and injected faults, filters, and HAR export.</p>
    </Placeholder>
  );
}
