import { afterEach, describe, expect, it, vi } from 'vitest';
import { FINISHED_NOTE_MS, generationNote, useGenerationStore } from './generation-store';

const run = (state: 'running' | 'finished' | 'stopped' | 'failed', queueId = 'q', message?: string) => ({
  queueId,
  state,
  done: 130_000,
  total: 1_000_000,
  ...(message ? { message } : {}),
});

describe('generation store', () => {
  it('says how a run got on: progress, a stop that kept what was made, a failure and why, and a finished run', () => {
    expect(generationNote(undefined)).toBeNull();
    expect(generationNote(run('running'))).toBe('Generating: 130,000 of 1,000,000 made');
    expect(generationNote(run('stopped'))).toBe('Generation stopped: 130,000 of 1,000,000 made (they stay)');
    expect(
      generationNote(
        run('failed', 'q', 'queue q has no item item-9; 130,000 of 1,000,000 items had been made and stay'),
      ),
    ).toBe('Generation ended: queue q has no item item-9; 130,000 of 1,000,000 items had been made and stay');
    expect(generationNote(run('finished'))).toBe('Generated 1,000,000 sample tracks');
    expect(generationNote({ ...run('finished'), done: 1, total: 1 })).toBe('Generated 1 sample track');
  });

  it('keeps the latest word per queue, and forgets runs it heard running when the connection comes back', () => {
    const store = useGenerationStore.getState();
    store.report(run('running', 'a'));
    store.report(run('stopped', 'b'));
    store.report(run('running', 'b'));
    store.report(run('failed', 'c'));
    useGenerationStore.getState().forgetRunning();
    expect(Object.keys(useGenerationStore.getState().byQueue).sort()).toEqual(['c']);
  });

  describe('a finished run', () => {
    afterEach(() => vi.useRealTimers());

    it('is news for a moment, then forgotten; a later word on the queue and a stop are not (audit)', () => {
      vi.useFakeTimers();
      const store = useGenerationStore.getState();
      store.report(run('finished', 'f'));
      store.report(run('finished', 'g'));
      vi.advanceTimersByTime(FINISHED_NOTE_MS - 1);
      expect(useGenerationStore.getState().byQueue.f?.state).toBe('finished');
      // A new run on g before the first's note went: its word stays.
      const again = run('running', 'g');
      store.report(again);
      vi.advanceTimersByTime(1);
      expect(useGenerationStore.getState().byQueue.f).toBeUndefined();
      expect(useGenerationStore.getState().byQueue.g).toBe(again);
      store.report(run('stopped', 's'));
      vi.advanceTimersByTime(FINISHED_NOTE_MS * 10);
      expect(useGenerationStore.getState().byQueue.s?.state).toBe('stopped');
    });
  });
});
