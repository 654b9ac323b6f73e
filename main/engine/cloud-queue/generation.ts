/**
 * "Generate N sample tracks" as a run of edits of GENERATION_STEP items each, with the event loop
 * free between them. A million items take about fifteen seconds of inserts, and in one transaction
 * every listener (players' calls, logins, the console itself) went unanswered for that long, with
 * nothing to show how far it had got.
 *
 * Each step is a whole edit (it bumps queueVersion and says `queues.changed`), so a reader at any
 * moment sees a consistent queue, only not all of it yet. The items stay one run: each step follows
 * the last item of the step before, and every step plans the rest of the gap for all the items
 * still to come (`insertRows`'s room), so the labels are spread once, not squeezed step by step.
 * Stop keeps what was made; the queue or the item it follows going away ends the run.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EngineError, toErrorBody } from '../api/errors.js';
import type { QueueEditResult, QueueGeneration } from '../api/queue-types.js';
import type { QueueModel } from './queue-model.js';

/**
 * Items per edit: about 35 ms of work here, so the servers answer between steps. A listener's
 * request that comes during a step waits for it and, now and then, the next: with 5,000 (70 ms)
 * and the collector's pauses a player's GET /version waited 180-210 ms alone; with 2,500, 100-150.
 */
export const GENERATION_STEP = 2_500;

interface Run {
  total: number;
  done: number;
  stop: boolean;
  /** Settles when the run has ended, however it ended. */
  ended: Promise<void>;
}

export interface QueueGenerationsDeps {
  queues: Pick<QueueModel, 'addSamples' | 'checkAnchor' | 'head'>;
  emit: (name: 'queues.generation', data: QueueGeneration) => void;
  /** What runs between steps (tests make it a point they can stop at). */
  between?: () => Promise<unknown>;
}

/** What a run that ended early on an error had made: its `details`. */
export interface GenerationFailure {
  done: number;
  total: number;
  itemIds: string[];
}

export class QueueGenerations {
  private readonly runs = new Map<string, Run>();
  private closed = false;

  constructor(private readonly deps: QueueGenerationsDeps) {}

  /** Adds `count` sample tracks after `afterItemId` (null: at the start; absent: at the end). */
  async generate(queueId: string, count: number, afterItemId?: string | null): Promise<QueueEditResult> {
    if (this.closed) throw new EngineError('unavailable', 'the engine is closing');
    const busy = this.runs.get(queueId);
    if (busy)
      throw new EngineError(
        'conflict',
        `queue ${queueId} is generating already (${madeOf(busy)} made); stop that first`,
      );
    // A wrong queue or item is refused before anything is made, as any edit's would be.
    this.deps.queues.checkAnchor(queueId, afterItemId);

    let end!: () => void;
    const run: Run = { total: count, done: 0, stop: false, ended: new Promise<void>((resolve) => (end = resolve)) };
    this.runs.set(queueId, run);
    const itemIds: string[] = [];
    let result: QueueEditResult | null = null;
    let after = afterItemId;
    try {
      while (run.done < count) {
        if (run.done > 0) {
          await (this.deps.between ?? nextTurn)();
          if (run.stop) break;
        }
        const step = Math.min(GENERATION_STEP, count - run.done);
        result = this.deps.queues.addSamples(queueId, step, after, count - run.done);
        for (const id of result.itemIds ?? []) itemIds.push(id);
        run.done += step;
        after = itemIds[itemIds.length - 1];
        if (run.done < count) this.report(queueId, run, 'running');
      }
    } catch (error) {
      const failure = run.done === 0 ? toErrorBody(error) : this.endedEarly(queueId, run, after!, error);
      this.report(queueId, run, 'failed', failure.message);
      throw run.done === 0
        ? error
        : new EngineError(failure.code, failure.message, {
            done: run.done,
            total: count,
            itemIds,
          } satisfies GenerationFailure);
    } finally {
      this.runs.delete(queueId);
      end();
    }
    this.report(queueId, run, run.done < count ? 'stopped' : 'finished');
    return { ...result!, itemIds };
  }

  /**
   * Ends a queue's generation after its current step and answers once it has ended, so that a
   * new one may start; what was made stays.
   */
  async stop(queueId: string): Promise<{ stopped: boolean }> {
    const run = this.runs.get(queueId);
    if (!run) return { stopped: false };
    run.stop = true;
    await run.ended;
    return { stopped: true };
  }

  /** Whether the queue has a run going (a queue deleted mid-run still has, until its next step). */
  running(queueId: string): boolean {
    return this.runs.has(queueId);
  }

  /** Why a run that had made items failed, in the words of the run rather than of its last edit. */
  private endedEarly(
    queueId: string,
    run: Run,
    after: string,
    error: unknown,
  ): { code: ReturnType<typeof toErrorBody>['code']; message: string } {
    const { code, message } = toErrorBody(error);
    const why = !this.deps.queues.head(queueId)
      ? `queue ${queueId} was deleted`
      : code === 'not_found'
        ? `${after}, the last item it had made, was removed or replaced, and the rest was to follow it`
        : message;
    return { code, message: `the generation stopped after ${madeOf(run)} items: ${why}` };
  }

  /** The engine is closing: every run ends at its next step, before the store closes. */
  close(): void {
    this.closed = true;
    for (const run of this.runs.values()) run.stop = true;
  }

  private report(queueId: string, run: Run, state: QueueGeneration['state'], message?: string): void {
    this.deps.emit('queues.generation', {
      queueId,
      state,
      done: run.done,
      total: run.total,
      ...(message ? { message } : {}),
    });
  }
}

const madeOf = (run: Run): string => `${run.done.toLocaleString('en-US')} of ${run.total.toLocaleString('en-US')}`;
