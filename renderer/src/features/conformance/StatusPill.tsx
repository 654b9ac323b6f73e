/** How a run stands, in a word (never colour alone): running, passed or failed. */
import type { ConformanceRunStatus } from '@engine-api/conformance-types';

export function StatusPill({ status }: { status: ConformanceRunStatus }) {
  return (
    <span className="check-status" data-status={status}>
      {status}
    </span>
  );
}
