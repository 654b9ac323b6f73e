/**
 * How long a listener keeps a client waiting while other work runs: a probe asks `url` one request
 * at a time, a few ms apart, and times the span from one answer to the next, the pause included
 * (the probe runs in the engine's own process: a stall that began while it paused is counted too).
 *
 * Each span is its wall time, or the CPU time this process spent in it when that is less: on a
 * machine shared with other work (two test workers on two cores) the wall time also counts other
 * processes' turns, which hold no listener of the engine's. Work that holds the event loop spends
 * its time on this process's CPU, so it is counted whole.
 */
import { expect } from 'vitest';

export interface StallProbe {
  /** Stops asking; answers every span, in ms. */
  stop(): Promise<number[]>;
}

export interface StallProbeOptions {
  headers?: Record<string, string>;
  /** The pause between one answer and the next request. */
  pauseMs?: number;
  /** Each answer's body, for a test that reads what it saw. */
  seen?: (body: string) => void;
}

export function probeStalls(url: string, { headers = {}, pauseMs = 10, seen }: StallProbeOptions = {}): StallProbe {
  const spans: number[] = [];
  let running = true;
  const loop = (async () => {
    let wall = performance.now();
    let cpu = process.cpuUsage();
    while (running) {
      const answer = await fetch(url, { headers });
      const body = await answer.text();
      expect(answer.status, `${url} answered ${answer.status}`).toBe(200);
      seen?.(body);
      const spent = process.cpuUsage(cpu);
      spans.push(Math.min(performance.now() - wall, (spent.user + spent.system) / 1_000));
      // The next span starts here, before the pause: a stall while the probe waits is in it.
      wall = performance.now();
      cpu = process.cpuUsage();
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return spans;
    },
  };
}

/** The slowest spans, rounded, for a failure message. */
export function slowest(spans: readonly number[], count = 5): string {
  return `${[...spans]
    .sort((a, b) => b - a)
    .slice(0, count)
    .map((ms) => Math.round(ms))
    .join(', ')} of ${spans.length}`;
}
