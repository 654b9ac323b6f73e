/**
 * The latest word on each queue's generation of sample tracks (`queues.generation`), whoever
 * started it: this editor, another window, or a script through the admin API.
 */
import { create } from 'zustand';
import type { QueueGeneration } from '@engine-api/queue-types';

interface GenerationState {
  byQueue: Record<string, QueueGeneration>;
  report(generation: QueueGeneration): void;
  /** After a reconnect a run may have ended unheard; one still running says so again at its next step. */
  forgetRunning(): void;
  /** The queue went, or a new run starts: how the last one ended is no longer news. */
  forget(queueId: string): void;
}

/**
 * How long "Generated N sample tracks" stays in the editor's status: it is news when it comes (and
 * a screen reader has heard it by then), not for the rest of the session (audit: it lingered).
 * A stop or a failure stays until the next run: it says what is missing.
 */
export const FINISHED_NOTE_MS = 8_000;

export const useGenerationStore = create<GenerationState>((set, get) => ({
  byQueue: {},
  report: (generation) => {
    set((s) => ({ byQueue: { ...s.byQueue, [generation.queueId]: generation } }));
    if (generation.state === 'finished')
      setTimeout(() => {
        if (get().byQueue[generation.queueId] === generation) get().forget(generation.queueId);
      }, FINISHED_NOTE_MS);
  },
  forgetRunning: () =>
    set((s) => ({ byQueue: Object.fromEntries(Object.entries(s.byQueue).filter(([, g]) => g.state !== 'running')) })),
  forget: (queueId) =>
    set((s) => ({ byQueue: Object.fromEntries(Object.entries(s.byQueue).filter(([id]) => id !== queueId)) })),
}));

/** What the editor says about a run: its progress while running, how it ended otherwise. */
export function generationNote(generation: QueueGeneration | undefined): string | null {
  if (!generation) return null;
  const made = `${generation.done.toLocaleString()} of ${generation.total.toLocaleString()}`;
  switch (generation.state) {
    case 'running':
      return `Generating: ${made} made`;
    case 'stopped':
      return `Generation stopped: ${made} made (they stay)`;
    case 'failed':
      return `Generation ended: ${generation.message ?? 'failed'}`;
    case 'finished':
      // Said too, not only seen in the count: a screen reader hears the status, not the bar going.
      return `Generated ${generation.total.toLocaleString()} sample track${generation.total === 1 ? '' : 's'}`;
  }
}
