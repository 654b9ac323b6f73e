/**
 * Where a fleet's shares of players play (share.ts): in the fleet's own thread (`LocalShare`), or
 * each in a worker thread (`WorkerShare`, fleet-worker.ts). Both answer snapshots the same way;
 * a worker's come by message. The worker's script is `fleet-worker.js` beside the built CLI
 * (`out/cli/`), or, from TypeScript sources (tests, `npm run bench`), `fleet-worker.ts` loaded
 * through tsx, the loader the repository's scripts already use.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PlayerExchange } from '../player/client.js';
import { zeroCounts } from './metrics.js';
import { DRAIN_LIMIT_MS } from './requests-out.js';
import type { PlayerShare, ShareSnapshot } from './share.js';
import type { FromWorker, MirroredRules, ToWorker } from './worker-protocol.js';

/** How long a worker may take to answer a snapshot before the fleet reads it as gone. */
export const WORKER_ANSWER_MS = 15_000;

export interface Share {
  snapshot(): Promise<ShareSnapshot>;
  /**
   * The last snapshot; then its players close (and its thread ends). `ranItsCourse`: the fleet
   * reached its duration (not stopped), and its players due by then join first (share.ts, drain).
   */
  finish(ranItsCourse: boolean): Promise<ShareSnapshot>;
  /** The console's live `player` rules now; a local share reads the console's registry itself. */
  mirror(rules: MirroredRules): void;
}

export class LocalShare implements Share {
  constructor(private readonly share: PlayerShare) {}

  snapshot(): Promise<ShareSnapshot> {
    return Promise.resolve(this.share.snapshot());
  }

  async finish(ranItsCourse: boolean): Promise<ShareSnapshot> {
    await this.share.drain(ranItsCourse);
    const last = this.share.snapshot();
    this.share.close();
    return last;
  }

  mirror(): void {
    // Its requests ask the console's own registry: nothing to copy.
  }
}

/** The worker script and how to run it; null when neither the built nor the source one is here. */
export function workerScript(): { code: string } | null {
  const here = import.meta.url;
  // A variable, not a literal: the bundler must not make an asset of the worker's URL.
  const name = here.endsWith('.ts') ? 'fleet-worker.ts' : 'fleet-worker.js';
  const entry = new URL(`./${name}`, here);
  if (!existsSync(fileURLToPath(entry))) return null;
  if (name.endsWith('.js')) return { code: `import(${JSON.stringify(entry.href)});` };
  // From sources: tsx's loader registered in the worker first, then the entry.
  const api = createRequire(here)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  return {
    code: `import(${JSON.stringify(pathToFileURL(api).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`,
  };
}

export class WorkerShare implements Share {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (s: ShareSnapshot) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private last: ShareSnapshot | null = null;
  private gone: Error | null = null;
  /** Until its thread ended. */
  alive = true;
  private started = false;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;

  constructor(
    script: { code: string },
    init: Extract<ToWorker, { type: 'init' }>,
    private readonly onExchange: (exchange: PlayerExchange) => void,
    private readonly onFailure: (message: string) => void,
  ) {
    this.worker = new Worker(script.code, { eval: true, name: `fleet ${init.fleetId}` });
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        this.alive = false;
        resolve();
      }),
    );
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'exchange') this.onExchange(message.exchange);
        else if (message.type === 'snapshot') {
          this.last = message.snapshot;
          this.waiting.get(message.seq)?.resolve(message.snapshot);
          this.waiting.delete(message.seq);
        } else this.onFailure(message.message);
      });
      const fail = (error: Error): void => {
        this.gone ??= error;
        reject(error);
        for (const { reject: no } of this.waiting.values()) no(error);
        this.waiting.clear();
      };
      this.worker.once('error', (error) => {
        this.onFailure(`a worker thread failed: ${error.message}`);
        fail(error);
      });
      this.worker.once('exit', (code) => fail(new Error(`the worker thread ended (exit ${code})`)));
    });
    this.ready.catch(() => undefined);
    this.worker.postMessage(init satisfies ToWorker);
  }

  start(message: Extract<ToWorker, { type: 'start' }>): void {
    this.started = true;
    this.worker.postMessage(message satisfies ToWorker);
  }

  mirror(rules: MirroredRules): void {
    if (!this.gone) this.worker.postMessage({ type: 'rules', ...rules } satisfies ToWorker);
  }

  snapshot(): Promise<ShareSnapshot> {
    return this.ask('snapshot');
  }

  async finish(ranItsCourse: boolean): Promise<ShareSnapshot> {
    if (!this.started) {
      // Stopped before it played (the fleet was stopped while its threads were loading).
      await this.worker.terminate();
      await this.exited;
      throw new Error('the worker thread never played');
    }
    try {
      // Its requests in flight are waited for first (share.ts, drain), then it answers.
      return await this.ask('finish', DRAIN_LIMIT_MS + WORKER_ANSWER_MS, ranItsCourse);
    } finally {
      // Its players are closed (or it is stuck): the thread ends either way.
      await this.worker.terminate();
      await this.exited;
    }
  }

  /** What a worker that cannot answer leaves: its figures up to its last snapshot, nothing new. */
  private stale(): ShareSnapshot | null {
    return this.last && { ...this.last, delta: zeroCounts() };
  }

  private ask(type: 'snapshot' | 'finish', answerMs = WORKER_ANSWER_MS, ranItsCourse = false): Promise<ShareSnapshot> {
    const stale = this.stale();
    if (this.gone) return stale ? Promise.resolve(stale) : Promise.reject(this.gone);
    const seq = ++this.seq;
    return new Promise<ShareSnapshot>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(seq);
        const stale = this.stale();
        if (stale) resolve(stale);
        else reject(new Error(`a worker thread did not answer in ${answerMs / 1_000} s`));
      }, answerMs);
      this.waiting.set(seq, {
        resolve: (s) => (clearTimeout(timer), resolve(s)),
        reject: (e) => {
          clearTimeout(timer);
          const stale = this.stale();
          if (stale) resolve(stale);
          else reject(e);
        },
      });
      this.worker.postMessage((type === 'finish' ? { type, seq, ranItsCourse } : { type, seq }) satisfies ToWorker);
    });
  }
}
