/**
 * The traffic log, a storage engine of its own: exchanges encoded into segments (`codec.ts`), an
 * in-memory index for the filters (`entry-index.ts`), response bodies shared between entries
 * (`bodies.ts`), the log itself (`log.ts`) and its file beside the console's database, with
 * damage recovery (`file.ts`). The rest of the engine imports it from here, and depends on
 * `TrafficLogStore` rather than on the class.
 */
export type { Committed, NewTrafficEntry, StoredTrafficEntry, TrafficCursor, TrafficLogStore } from './types.js';
export { TrafficLog } from './log.js';
export {
  LOG_PAGE_SIZE,
  TRAFFIC_LOG_FILE,
  TrafficLogFile,
  openStoreWithTrafficLog,
  type StoreWithTrafficLog,
  type TrafficLogRecovery,
} from './file.js';
export { headerBlock, rawHeaderBlock, type HeaderBlock } from './header-block.js';
export { HELD_ENTRIES, type HeldParts, type TextSplice } from './held.js';
export { newestRows, NEWEST_ROWS_READ } from './newest.js';
