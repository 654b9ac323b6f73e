/**
 * The traffic log ids of a run's requests, its evidence. An entry gets its id when the recorder
 * writes its batch, so the run listens to the batches written while it runs and keeps the ids of
 * its own requests (by `X-Request-Id`); `idsOf` writes what is waiting first, so a settled case
 * names every entry it rests on. Traffic capture turned off leaves a case without ids. While a
 * run listens, the recorder builds each batch's summaries (what the UI's own stream leaves out):
 * a few seconds' worth, for the length of a run.
 */
import type { EventBus } from '../events/bus.js';
import type { Answer } from './server.js';

export class TrafficEvidence {
  private readonly wanted = new Set<string>();
  private readonly ids = new Map<string, number>();
  private readonly stop: () => void;

  constructor(
    bus: Pick<EventBus, 'on'>,
    private readonly flush: () => void,
  ) {
    this.stop = bus.on('traffic.captured', (batch) => {
      for (const entry of batch) {
        if (entry.target === 'player' && entry.requestId !== null && this.wanted.has(entry.requestId)) this.ids.set(entry.requestId, entry.id);
      }
    });
  }

  /** A request of the run, about to be captured. */
  expect(requestId: string): void {
    this.wanted.add(requestId);
  }

  idsOf(answers: readonly Answer[]): number[] {
    this.flush();
    const ids = answers.map((answer) => this.ids.get(answer.exchange.requestId)).filter((id) => id !== undefined);
    return [...new Set(ids)].sort((a, b) => a - b);
  }

  close(): void {
    this.stop();
  }
}
