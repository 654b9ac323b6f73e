/**
 * A flow step's line reads "kind, then what happened": the engine's summary often opens with its
 * own kind ("API call POST …", "sample: exchanged …", "consent: …", "window load: …"), which
 * beside the kind's name read twice ("API call API call POST …"). Said once here.
 */
import type { FlowStepKind } from '@engine-api/oauth-types';

/** How each kind's summary may open: the words the kind's name already says. */
const OPENINGS: Partial<Record<FlowStepKind, RegExp>> = {
  api_call: /^API call\s+/i,
  sample: /^sample:\s*/i,
  consent: /^consent:\s*/i,
  navigation: /^window\s+(?=\w+:)/i,
};

export function summaryAfterKind(kind: FlowStepKind, summary: string): string {
  const opening = OPENINGS[kind];
  const rest = opening ? summary.replace(opening, '') : summary;
  return rest === '' ? summary : rest;
}
