/**
 * A HAR export never holds up the console's listeners more than 250 ms (docs/contract/console.md
 * §9). Its entries are read and converted a slice of time at a time, yielding to the event loop
 * between slices; and since the answer leaves as one JSON text, which is written in one go (about
 * 4 ms a MB, measured), an export that would pass HAR_EXPORT_MAX_BYTES is refused with a message
 * that says how many of the newest entries fit and how to read the rest in pages.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { HarEntry, HarLog } from '../api/har-types.js';
import { EngineError } from '../api/errors.js';
import { HAR_CREATOR_VERSION, toHarEntry } from './har.js';
import type { StoredTrafficEntry } from './log/index.js';
import { presentEntry } from './present.js';

/**
 * One answer's HAR text. Measured with 10,000 entries of 20 kB waiting: on a quiet machine a
 * 24 MB answer held a queue's `GET /version` up to 126 ms and a 16 MB one up to 160 ms (reading
 * and converting in slices: at most 44 ms); with eight processes on two cores a 16 MB answer took
 * 260–360 ms. At 8 MB the one piece that cannot be sliced stays well inside 250 ms on a busy machine.
 */
export const HAR_EXPORT_MAX_BYTES = 8 * 1024 * 1024;
/** Work between yields: short against 250 ms, long against a turn of the event loop. */
const SLICE_MS = 10;

/** What a refused export says in `details`: how many of the newest entries fit. */
export interface HarTooLarge {
  fits: number;
  asked: number;
  maxBytes: number;
}

/**
 * The entries `ids` names (oldest first) as a HAR log, read with `read` a slice at a time; an
 * entry dropped meanwhile (by the retention cap) is left out.
 */
export async function exportHar(
  ids: readonly number[],
  read: (id: number) => StoredTrafficEntry | undefined,
  reveal: boolean,
  maxBytes = HAR_EXPORT_MAX_BYTES,
  /** `refuse`: an export past `maxBytes` fails with what fits; `keepNewest`: it holds the newest that fit (a bundle's HAR, whose scenario is the point). */
  whenFull: 'refuse' | 'keepNewest' = 'refuse',
): Promise<HarLog> {
  const newestFirst: HarEntry[] = [];
  let bytes = 0;
  let sliceStart = performance.now();
  // Newest first: when the cap is reached, what fits is known.
  for (let k = ids.length - 1; k >= 0; k--) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
    const entry = read(ids[k]!);
    if (!entry) continue;
    const har = toHarEntry(presentEntry(entry, reveal));
    bytes += JSON.stringify(har).length + 1;
    if (bytes > maxBytes) {
      if (whenFull === 'refuse') throw tooLarge(newestFirst.length, ids.length, maxBytes);
      break;
    }
    newestFirst.push(har);
  }
  return {
    log: {
      version: '1.2',
      creator: { name: 'Cloud Queue Console', version: HAR_CREATOR_VERSION },
      entries: newestFirst.reverse(),
    },
  };
}

function tooLarge(fits: number, asked: number, maxBytes: number): EngineError {
  const mb = Math.round(maxBytes / (1024 * 1024));
  return new EngineError(
    'invalid_input',
    `the newest ${asked.toLocaleString('en-US')} entries make more than ${mb} MB of HAR, more than one export answers without holding up the console's listeners: ` +
      `the newest ${fits.toLocaleString('en-US')} fit (ask with "limit": ${fits}), a narrower filter (target, status, reason, requestId, text) takes older ones, ` +
      'and GET /admin/api/traffic?since=<id>&limit=<n> reads every entry in pages',
    { fits, asked, maxBytes } satisfies HarTooLarge,
  );
}
