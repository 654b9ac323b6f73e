/**
 * The conformance suite: its cases in the order a run settles them. A case that builds on others
 * comes after them; the walk comes before the cases that judge every window fetched (items,
 * queueVersion), so they judge the walk's windows too; timing comes last, over every answer.
 */
import type { ConformanceCaseInfo } from '../api/conformance-types.js';
import type { ConformanceCase } from './case.js';
import { wrongAuthorization } from './cases/auth.js';
import { negativeSize, nonIntegerSize, unknownItem } from './cases/bad-requests.js';
import { contextAnswers } from './cases/context.js';
import { everyReason } from './cases/reasons.js';
import { windowCentred, windowSizeLimits } from './cases/sizes.js';
import { finalReport, updateReport } from './cases/time-played.js';
import { answerTimes } from './cases/timing.js';
import { versionAgrees, windowQueueVersion } from './cases/versions.js';
import { queueEnds, uniqueIds } from './cases/walk.js';
import { firstWindow, windowItems } from './cases/window.js';

export const SUITE: readonly ConformanceCase[] = [
  contextAnswers,
  firstWindow,
  windowSizeLimits,
  windowCentred,
  unknownItem,
  negativeSize,
  nonIntegerSize,
  queueEnds,
  uniqueIds,
  windowItems,
  windowQueueVersion,
  versionAgrees,
  everyReason,
  updateReport,
  finalReport,
  wrongAuthorization,
  answerTimes,
];

export function caseInfos(cases: readonly ConformanceCase[] = SUITE): ConformanceCaseInfo[] {
  return cases.map(({ id, rule, title }) => ({ id, rule, title }));
}
