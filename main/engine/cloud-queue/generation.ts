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

/** Items per edit: about 70 ms of work here, so the servers answer between steps. */
export const GENERATION_STEP = 5_000;

interface Run {
  total: number;
  done: number;
  stop: boolean;
}

export interface QueueGenerationsDeps {
  queues: Pick<QueueModel, 'addSamples' | 'checkAnchor'>;
  emit: (name: 'queues.generation', data: QueueGeneration) => void;
  /** What runs between steps (tests make it a point they can stop at). */
  between?: () => Promise<unknown>;
}

export class QueueGenerations {
  private readonly runs = new Map<string, Run>();
  private closed = false;

  constructor(private readonly deps: QueueGenerationsDeps) {}

  /** Adds `count` sample tracks after `afterItemId` (null: at the start; absent: at the end). */
  async generate(queueId: string, count: number, afterItemId?: string | null): Promise<QueueEditResult> {
    if (this.closed) throw new EngineError('unavailable', 'the engine is closing');
    const busy = this.runs.get(queueId);
    if (busy) throw new EngineError('conflict', `queue ${queueId} is generating already (${madeOf(busy)} made); stop that first`);
    // A wrong queue or item is refused before anything is made, as any edit's would be.
    this.deps.queues.checkAnchor(queueId, afterItemId);

    const run: Run = { total: count, done: 0, stop: false };
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
      const { code, message } = toErrorBody(error);
      const said = run.done === 0 ? message : `${message}; ${madeOf(run)} items had been made and stay`;
      this.report(queueId, run, 'failed', said);
      throw new EngineError(code, said);
    } finally {
      this.runs.delete(queueId);
    }
    this.report(queueId, run, run.done < count ? 'stopped' : 'finished');
    return { ...result!, itemIds };
  }

  /** Ends a queue's generation after its current step; what was made stays. */
  stop(queueId: string): { stopped: boolean } {
    const run = this.runs.get(queueId);
    if (run) run.stop = true;
    return { stopped: run !== undefined };
  }

  /** The engine is closing: every run ends at its next step, before the store closes. */
  close(): void {
    this.closed = true;
    for (const run of this.runs.values()) run.stop = true;
  }

  private report(queueId: string, run: Run, state: QueueGeneration['state'], message?: string): void {
    this.deps.emit('queues.generation', { queueId, state, done: run.done, total: run.total, ...(message ? { message } : {}) });
  }
}

const madeOf = (run: Run): string => `${run.done.toLocaleString('en-US')} of ${run.total.toLocaleString('en-US')}`;
