/**
 * A fleet worker thread: it plays one share of the fleet's players (share.ts) on an engine clock
 * of its own, started where the fleet's was (same wall start, same engine start, same speed), so
 * its players' rhythm is the fleet's. Its requests leave through a fault registry of its own: the
 * fleet's timed rules go on and off in it at their engine times, and the console's live `player`
 * rules are mirrored into it by the main thread. The main thread keeps the report and the
 * traffic log: this posts it the exchanges picked for the log, and snapshots when asked.
 */
import { parentPort } from 'node:worker_threads';
import type { FaultRule } from '../api/fault-types.js';
import { messageOf } from '../api/errors.js';
import { EngineClock } from '../clock/clock.js';
import { systemWall } from '../clock/wall.js';
import { faultingTransport } from '../faults/player-transport.js';
import { FaultRegistry } from '../faults/registry.js';
import { keepAliveTransport } from '../player/http-transport.js';
import type { LoadParams } from '../player/events.js';
import { PlayerShare } from './share.js';
import { SharedTimes } from './shared-times.js';
import type { FromWorker, MirroredRules, ToWorker } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('fleet-worker runs as a worker thread of a fleet');

/** The worker's rules live in memory only: the console's store is the main thread's. */
type Repo = ConstructorParameters<typeof FaultRegistry>[0]['repo'];
const memoryRepo = {
  list: () => [],
  add: () => undefined,
  save: () => undefined,
  reorder: () => undefined,
  remove: () => true,
  clear: () => 0,
} as unknown as Repo;

const send = (message: FromWorker): void => port.postMessage(message);

let init: Extract<ToWorker, { type: 'init' }> | null = null;
let clock: EngineClock | null = null;
let faults: FaultRegistry | null = null;
let share: PlayerShare | null = null;
/** The share's kept-alive connections, closed with it. */
const http = keepAliveTransport();
/** Ids of the console's rules mirrored here. */
const mirrored = new Set<string>();
/**
 * Hits of the copies let go here, by rule id: a rule that leaves the console may come back under
 * its id (a scenario's `clearFaults` puts it back), and its new copy counts from 0. Reported with
 * the live copy's, so each id's count only grows and the console is told every hit.
 */
const letGo = new Map<string, number>();
/** The `times` counts this thread's rules share with the fleet's other threads, by rule id. */
const times = new SharedTimes();

function mirror({ rules, timesLeft }: MirroredRules): void {
  if (!faults) return;
  const wanted = new Set(rules.map((r) => r.id));
  for (const id of [...mirrored])
    if (!wanted.has(id)) {
      letGo.set(id, (letGo.get(id) ?? 0) + (faults.get(id)?.hits ?? 0));
      faults.remove(id);
      times.unbind(id);
      mirrored.delete(id);
    }
  // A copy counts its own hits from 0: the main thread adds them to the console's rule.
  const fresh: FaultRule[] = rules
    .filter((r) => !mirrored.has(r.id))
    .map((r) => ({ ...r, hits: 0, passes: 0, spent: false }));
  for (const rule of fresh) {
    const left = timesLeft[rule.id];
    if (left) times.bind(rule.id, left);
    mirrored.add(rule.id);
  }
  faults.putBack(fresh);
  // In the console's order (a rule moved there is moved here), before the fleet's own rules.
  rules.forEach((rule, i) => faults!.move(rule.id, i));
}

/** This thread's hits so far on each console rule mirrored here, its copies let go included. */
function mirroredHits(): Record<string, number> {
  const hits: Record<string, number> = Object.fromEntries(letGo);
  for (const id of mirrored) hits[id] = (hits[id] ?? 0) + (faults?.get(id)?.hits ?? 0);
  return hits;
}

function start(message: Extract<ToWorker, { type: 'start' }>): void {
  if (!init) throw new Error('start before init');
  const { fleetId, input, numbers, loads, drawSeed, bodySlots, faultTimes } = init;
  // The fleet's engine time now, from its start: every thread's clock reads the same.
  clock = new EngineClock({
    startAt: message.startAt + (Date.now() - message.startWall) * message.speed,
    speed: message.speed,
    onTimerError: (error, label) => send({ type: 'failed', message: `timer ${label}: ${messageOf(error)}` }),
  });
  faults = new FaultRegistry({
    repo: memoryRepo,
    clock,
    bus: { emit: () => undefined },
    takeTime: (id) => times.take(id),
  });
  mirror(message);
  const byNumber = new Map<number, LoadParams>(numbers.map((n, i) => [n, loads[i]!]));
  share = new PlayerShare({
    fleetId,
    input,
    numbers,
    queueOf: (n) => byNumber.get(n)!,
    clock,
    startAt: message.startAt,
    timeouts: systemWall,
    transport: faultingTransport(http.transport, faults, clock, systemWall),
    faults,
    onFaultOn: (index, ruleId) => {
      const left = faultTimes[index];
      if (left) times.bind(ruleId, left);
    },
    post: (exchange) => send({ type: 'exchange', exchange }),
    drawSeed,
    bodySlots,
  });
  share.start();
}

/** The fleet ended: its requests in flight counted, the last snapshot, then the players close. */
async function finish(seq: number, ranItsCourse: boolean): Promise<void> {
  try {
    if (share) {
      await share.drain(ranItsCourse);
      send({ type: 'snapshot', seq, snapshot: { ...share.snapshot(), ruleHits: mirroredHits() } });
      share.close();
    }
  } catch (error) {
    send({ type: 'failed', message: messageOf(error) });
  } finally {
    clock?.close();
    http.close();
    port!.close();
  }
}

port.on('message', (message: ToWorker) => {
  try {
    switch (message.type) {
      case 'init':
        init = message;
        send({ type: 'ready' });
        break;
      case 'start':
        start(message);
        break;
      case 'rules':
        mirror(message);
        break;
      case 'snapshot':
        if (share)
          send({ type: 'snapshot', seq: message.seq, snapshot: { ...share.snapshot(), ruleHits: mirroredHits() } });
        break;
      case 'finish':
        void finish(message.seq, message.ranItsCourse);
        break;
    }
  } catch (error) {
    send({ type: 'failed', message: messageOf(error) });
  }
});
