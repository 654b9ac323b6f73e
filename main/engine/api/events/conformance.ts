import type { ConformanceProgress } from '../conformance-types.js';

/** Events of conformance runs (docs/contract/console.md §7, §8). */
export interface ConformanceEvents {
  /** A case of a run settled (`settled`), or the run ended (`settled` null, `status` passed or failed). */
  'conformance.progress': ConformanceProgress;
}
