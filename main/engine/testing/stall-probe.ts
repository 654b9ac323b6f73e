/**
 * How long a listener keeps a client waiting while other work runs: a probe asks `url` one request
 * at a time, a few ms apart, and times the span from one answer to the next, the pause included
 * (a stall that began while it paused is counted too).
 *
 * The probe asks from a thread of its own, as a player asks from another machine. Asked from the
 * engine's own event loop, each request and its answer took the client's turns too (sending,
 * reading, parsing): four to six turns of the engine's work between two answers, where a player
 * waits for one or two. With steps of 25-35 ms that came to 240 ms alone and 260 ms in CI against
 * a 250 ms bound. (What the test itself does on the engine's thread, such as sending a big body,
 * still holds the engine's loop, and counts.)
 *
 * Each span is its wall time, or the CPU time this process spent in it when that is less: on a
 * machine shared with other work (two test workers on two cores) the wall time also counts other
 * processes' turns, which hold no listener of the engine's. Work that holds the event loop spends
 * its time on this process's CPU, so it is counted whole.
 */
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

export interface StallProbe {
  /** Stops asking; answers every span, in ms. */
  stop(): Promise<number[]>;
  /** The slowest spans with what was in them, for a failure message (once stopped). */
  account(count?: number): string;
}

export interface StallProbeOptions {
  headers?: Record<string, string>;
  /** The pause between one answer and the next request. */
  pauseMs?: number;
  /** Each answer's body, for a test that reads what it saw. */
  seen?: (body: string) => void;
}

/** A span as counted (`ms`), its ends on the common clock (ms since the epoch) and the CPU in it. */
interface Span {
  ms: number;
  from: number;
  to: number;
  cpuMs: number;
}

/** Longer than any bound a test holds a listener to: an answer this late is none. */
const ANSWER_TIMEOUT_MS = 30_000;

/** What the probe's thread posts: an answer, or the end of its asking. */
type FromProbe = { kind: 'answer'; span: Span; status: number; body: string } | { kind: 'failed'; message: string };

/**
 * The probe's thread: plain JavaScript, run with `eval` (the test files are TypeScript its loader
 * does not read). It asks until told to stop, and ends its last request first.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers, pauseMs, timeoutMs } = workerData;
let running = true;
parentPort.on('message', () => (running = false));
const now = () => performance.timeOrigin + performance.now();
(async () => {
  let from = now();
  let cpu = process.cpuUsage();
  // Two answers at least: the first only starts the thread, the second times the test's work.
  for (let answers = 0; running || answers < 2; answers++) {
    // A listener that never answers ends the probe with an error, not a test that hangs.
    const answer = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    const body = await answer.text();
    const to = now();
    const spent = process.cpuUsage(cpu);
    const cpuMs = (spent.user + spent.system) / 1000;
    parentPort.postMessage({ kind: 'answer', span: { ms: Math.min(to - from, cpuMs), from, to, cpuMs }, status: answer.status, body });
    from = now();
    cpu = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
})().then(
  () => parentPort.close(),
  (error) => {
    parentPort.postMessage({ kind: 'failed', message: String(error && error.stack || error) });
    parentPort.close();
  },
);
`;

/**
 * Asks `url` from a thread of its own until stopped; answers once the first answer came, so that
 * the work the test starts next is probed from its first turn.
 */
export async function probeStalls(
  url: string,
  { headers = {}, pauseMs = 10, seen }: StallProbeOptions = {},
): Promise<StallProbe> {
  const meter = new CollectorPauses();
  const spans: Span[] = [];
  const problems: string[] = [];
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { url, headers, pauseMs, timeoutMs: ANSWER_TIMEOUT_MS },
    name: 'stall probe',
  });
  // A test that fails before `stop` leaves no thread to keep its process up.
  worker.unref();
  let answered!: () => void;
  const first = new Promise<void>((resolve) => (answered = resolve));
  let answers = 0;
  worker.on('message', (message: FromProbe) => {
    if (message.kind === 'failed') problems.push(message.message);
    else {
      if (message.status !== 200) problems.push(`${url} answered ${message.status}`);
      // The first span is the thread's start and its first connection, before the test's work.
      if (answers++ > 0) spans.push(message.span);
      seen?.(message.body);
    }
    answered();
  });
  // A thread that dies outside its loop (out of memory, a script error) is a failed probe, never
  // a probe with no spans, whose longest span would pass every bound.
  worker.on('error', (error) => problems.push(`the probe's thread failed: ${error.message}`));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(answered);
  await first;
  return {
    stop: async () => {
      worker.postMessage('stop');
      await exited;
      meter.close();
      if (problems.length > 0) throw new Error(`the probe of ${url}: ${[...new Set(problems)].join('; ')}`);
      return spans.map((span) => span.ms);
    },
    account: (count) => meter.account(spans, count),
  };
}

/**
 * The collector's pauses on this thread. A span that runs long in CI and not alone says little by
 * its length: beside it, its wall time, the CPU all this process's threads spent (the WAL's copying
 * thread, the collector's helpers) and the collector's pauses within it tell a turn that computed
 * from one that waited on the disk from one the collector held.
 */
class CollectorPauses {
  private readonly pauses: { from: number; to: number }[] = [];
  /** When the probe began, on the common clock: a span says when it came, from here. */
  private readonly started = performance.timeOrigin + performance.now();
  private readonly observer = new PerformanceObserver((list) => this.take(list.getEntries()));

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  private take(entries: readonly PerformanceEntry[]): void {
    for (const entry of entries) {
      const from = performance.timeOrigin + entry.startTime;
      this.pauses.push({ from, to: from + entry.duration });
    }
  }

  /** Stops watching; what it saw is kept for `account`. */
  close(): void {
    // Entries not yet handed to the callback are taken now, not lost.
    this.take(this.observer.takeRecords());
    this.observer.disconnect();
  }

  /** "364 (wall 364, CPU 412, GC 120, from 2.5 s), …": the slowest spans, each with its parts and when it began. */
  account(spans: readonly Span[], count = 3): string {
    return [...spans]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, count)
      .map((span) => {
        const gc = this.pauses.reduce(
          (sum, pause) => sum + Math.max(0, Math.min(pause.to, span.to) - Math.max(pause.from, span.from)),
          0,
        );
        const [ms, wall, cpu] = [span.ms, span.to - span.from, span.cpuMs].map(Math.round);
        const at = ((span.from - this.started) / 1_000).toFixed(1);
        return `${ms} (wall ${wall}, CPU ${cpu}, GC ${Math.round(gc)}, from ${at} s)`;
      })
      .join(', ');
  }
}

/** The slowest spans, rounded, for a failure message. */
export function slowest(spans: readonly number[], count = 5): string {
  return `${[...spans]
    .sort((a, b) => b - a)
    .slice(0, count)
    .map((ms) => Math.round(ms))
    .join(', ')} of ${spans.length}`;
}
