/**
 * The conformance suite: its cases in the order a run settles them. A case that builds on others
 * comes after them; the walk comes before the cases that judge every window fetched (sizes,
 * items, queueVersion), so they judge the walk's windows too; the play-through comes after every case
 * it builds on, and before the cases that judge every answer of the run (the flags by the walk's
 * ends, the version by /version, ids naming one track, Retry-After, timing), so they judge its
 * answers too. Each case talks to the server as itself:
 * its requests carry `X-Conformance-Case` (docs/contract/console.md §8).
 */
import type { ConformanceCaseInfo } from '../api/conformance-types.js';
import type { ConformanceCase } from './case.js';
import { wrongAuthorization } from './cases/auth.js';
import { negativeSize, nonIntegerSize, unknownItem } from './cases/bad-requests.js';
import { contextAnswers } from './cases/context.js';
import { stableIdentity } from './cases/identity.js';
import { playThrough } from './cases/play-through.js';
import { reachableBaseUrl } from './cases/reachable.js';
import { endsEverywhere, versionThroughout } from './cases/throughout.js';
import { everyReason } from './cases/reasons.js';
import { retryAfter } from './cases/retry-after.js';
import { windowCentred, windowSizeLimits } from './cases/sizes.js';
import { finalReport, updateReport } from './cases/time-played.js';
import { answerTimes } from './cases/timing.js';
import { versionAgrees, windowQueueVersion } from './cases/versions.js';
import { queueEnds, uniqueIds } from './cases/walk.js';
import { firstWindow, windowItems } from './cases/window.js';

/** The case as it runs in the suite: every request it makes names it. */
export function asItself(unit: ConformanceCase): ConformanceCase {
  return { ...unit, run: (context) => unit.run({ ...context, server: context.server.forCase(unit.id) }) };
}

export const SUITE: readonly ConformanceCase[] = [
  contextAnswers,
  reachableBaseUrl,
  firstWindow,
  windowCentred,
  unknownItem,
  negativeSize,
  nonIntegerSize,
  queueEnds,
  uniqueIds,
  windowSizeLimits,
  windowItems,
  windowQueueVersion,
  versionAgrees,
  everyReason,
  updateReport,
  finalReport,
  wrongAuthorization,
  playThrough,
  endsEverywhere,
  versionThroughout,
  stableIdentity,
  retryAfter,
  answerTimes,
].map(asItself);

export function caseInfos(cases: readonly ConformanceCase[] = SUITE): ConformanceCaseInfo[] {
  return cases.map(({ id, rule, title }) => ({ id, rule, title }));
}
