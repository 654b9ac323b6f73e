/**
 * Starts the load generator (bench/autocannon-client.mjs) in a process of its own, so that it
 * never takes the event loop of the servers it measures. Loopback URLs only; bounded by `seconds`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';

const CLIENT = join(import.meta.dirname, 'autocannon-client.mjs');

/** What autocannon-client.mjs reads on stdin (see there). */
export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  paths?: string[];
  /** A first line when the measured part starts (see autocannon-client.mjs). */
  announce?: boolean;
  timeline?: boolean;
}

/** The running client; `core`: pin it to that CPU with taskset. Its stdout carries the result. */
export function startLoad(options: LoadOptions, core: string | null = null) {
  const command = core ? ['taskset', '-c', core, process.execPath, CLIENT] : [process.execPath, CLIENT];
  const client = spawn(command[0]!, command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  client.stdin.end(JSON.stringify(options));
  return client;
}

/** Runs a load to its end and returns autocannon's result. */
export async function runLoad<Result>(options: LoadOptions, core: string | null = null): Promise<Result> {
  return JSON.parse(await text(startLoad(options, core).stdout)) as Result;
}

/**
 * Pins this process (the servers under test, all its threads) to the first core, on Linux with
 * `taskset`, and answers the core for the client (the last), so that the client never competes
 * with the servers or their collector threads; null when nothing could be pinned.
 */
export function pinServers(): string | null {
  const cores = availableParallelism();
  if (process.platform !== 'linux' || cores < 2) return null;
  const pinned = spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  return pinned.status === 0 ? String(cores - 1) : null;
}
