/** Command handlers of the traffic log. */
import type { TrafficEntry } from '../api/traffic-types.js';
import {
  TRAFFIC_LIST_DEFAULT_LIMIT,
  TRAFFIC_LIST_MAX_BYTES,
  TRAFFIC_SINCE_ENGINE_TIME,
} from '../api/commands/faults.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EngineError } from '../api/errors.js';
import type { CommandHandlers } from '../api/runner.js';
import type { Store } from '../store/store.js';
import type { StoredTrafficEntry, TrafficCursor, TrafficLogStore } from './log/index.js';
import { exportHar } from './har-export.js';
import { presentEntry } from './present.js';
import type { TrafficRecorder } from './recorder.js';

export { presentEntry } from './present.js';

type Names =
  | 'traffic.list'
  | 'traffic.page'
  | 'traffic.locate'
  | 'traffic.get'
  | 'traffic.clear'
  | 'traffic.settings'
  | 'traffic.configure'
  | 'traffic.har';

/** Work between yields while `GET /traffic` reads: short against 250 ms, long against a turn of the event loop. */
const LIST_SLICE_MS = 10;

/** Entries a HAR export takes without a `limit`: the newest of the set (a bundle takes 5,000: DEFAULT_EXPORT_LIMIT). */
const HAR_DEFAULT_LIMIT = 10_000;

export function trafficCommandHandlers(
  recorder: TrafficRecorder,
  log: Pick<TrafficLogStore, 'searched' | 'entryIds' | 'page' | 'locate' | 'get' | 'latestIds'>,
  store: Pick<Store, 'playerTransitions' | 'playerViolations'>,
): Pick<CommandHandlers, Names> {
  // A violation names the player's own entry by id; the console's server logs the same request
  // (same request id) as an entry of its own, which broke nothing.
  const present = (entry: StoredTrafficEntry, reveal = false, withTransitions = false): TrafficEntry =>
    presentEntry(
      entry,
      reveal,
      withTransitions && entry.requestId
        ? store.playerTransitions
            .causedBy(entry.requestId)
            .map(({ seq, playerId, from, to, transition, at }) => ({ seq, playerId, from, to, transition, at }))
        : [],
      withTransitions && entry.target === 'player' ? store.playerViolations.forTraffic(entry.id) : [],
    );

  return {
    'traffic.list': async ({ since, limit, ...filter }) => {
      recorder.flush();
      const cursor: TrafficCursor | undefined =
        since === undefined ? undefined : since >= TRAFFIC_SINCE_ENGINE_TIME ? { fromAt: since } : { afterId: since };
      // Entries are read one by one, a slice of time at a time (the other listeners answer in
      // between), and an answer that reaches its byte budget stops having read no more than it
      // sends (TRAFFIC_LIST_MAX_BYTES). An entry the retention cap drops meanwhile is left out.
      const answer: ReturnType<typeof present>[] = [];
      let bytes = 0;
      await log.searched(filter);
      let sliceStart = performance.now();
      for (const id of log.entryIds(filter, cursor, limit ?? TRAFFIC_LIST_DEFAULT_LIMIT)) {
        if (performance.now() - sliceStart > LIST_SLICE_MS) {
          await nextTurn();
          sliceStart = performance.now();
        }
        const entry = log.get(id);
        if (!entry) continue;
        const shown = present(entry, false, true);
        bytes += JSON.stringify(shown).length + 1;
        if (bytes > TRAFFIC_LIST_MAX_BYTES && answer.length > 0) break;
        answer.push(shown);
      }
      return answer;
    },
    // A text filter's search runs a slice at a time first (see log/search.ts); the read then walks nothing.
    'traffic.page': async ({ filter, offset, limit }) => {
      recorder.flush();
      await log.searched(filter ?? {});
      return log.page(filter ?? {}, offset, limit);
    },
    'traffic.locate': async ({ filter, id }) => {
      recorder.flush();
      await log.searched(filter ?? {});
      return { index: log.locate(filter ?? {}, id) };
    },
    'traffic.get': ({ id, reveal }) => {
      recorder.flush();
      const entry = log.get(id, reveal ?? false);
      if (!entry)
        throw new EngineError('not_found', `no traffic entry ${id} (it may have been dropped by the retention cap)`);
      return present(entry, reveal ?? false, true);
    },
    'traffic.clear': () => {
      recorder.clear();
      return { cleared: true };
    },
    'traffic.settings': () => recorder.settings,
    'traffic.configure': (change) => recorder.configure(change),
    'traffic.har': async ({ filter, reveal, limit }) => {
      recorder.flush();
      await log.searched(filter ?? {});
      // The newest of the set, oldest first, read a slice at a time (see har-export.ts).
      return exportHar(
        log.latestIds(filter ?? {}, limit ?? HAR_DEFAULT_LIMIT),
        (id) => log.get(id, reveal ?? false),
        reveal ?? false,
      );
    },
  };
}
