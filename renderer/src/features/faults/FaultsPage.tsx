import { Placeholder } from '../../components/Placeholder';

export function FaultsPage() {
  return (
    <Placeholder title="Faults">
      <p>Failure injection comes here: one-click presets for the seed's cases (503 with Retry-After, 404 on itemWindow, timeouts, drops, latency, malformed bodies), custom rules with live hit counts, and saved scenarios.</p>
    </Placeholder>
  );
}
