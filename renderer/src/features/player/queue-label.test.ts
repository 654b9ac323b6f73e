import { describe, expect, it } from 'vitest';
import type { QueueSummary } from '@engine-api/queue-types';
import { queueLabel } from './queue-label';

const queue = (id: string, name: string, itemCount: number) => ({ id, name, itemCount }) as QueueSummary;

describe("the command bar's queue list", () => {
  it('names a queue by its name and size, and adds its id only when another queue has the same name', () => {
    const all = [queue('queue-a', 'Morning', 3), queue('queue-b', 'Morning', 5), queue('queue-c', 'Evening', 1)];
    expect(all.map((q) => queueLabel(q, all))).toEqual([
      'Morning (3) · queue-a',
      'Morning (5) · queue-b',
      'Evening (1)',
    ]);
  });
});
