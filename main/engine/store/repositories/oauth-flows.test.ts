/** The flow inspector's records keep only the newest flows: pruning drops the oldest, and their steps with them. */
import { describe, expect, it } from 'vitest';
import { openStore } from '../store.js';

describe('pruning OAuth flows', () => {
  it('keeps the newest flows by start (the later made first among equal starts), with their steps', () => {
    const store = openStore({ dataDir: null });
    try {
      const flows = store.oauthFlows;
      // Starts out of order, and three at the same time.
      const starts = [5, 1, 7, 7, 3, 7, 2];
      starts.forEach((startedAt, i) => {
        const id = `flow-${i}`;
        flows.create({
          id,
          origin: 'external',
          integrationId: null,
          integrationName: null,
          clientId: null,
          status: 'started',
          startedAt,
        });
        flows.addStep({
          flowId: id,
          at: startedAt,
          kind: 'token',
          ok: true,
          summary: 's',
          detail: { kind: 'token' } as never,
        });
      });
      expect(flows.prune(4)).toBe(3);
      expect(flows.list(10).map((flow) => flow.id)).toEqual(['flow-5', 'flow-3', 'flow-2', 'flow-0']);
      const steps = store.db.prepare('SELECT flow_id FROM oauth_flow_steps ORDER BY flow_id').pluck().all();
      expect(steps).toEqual(['flow-0', 'flow-2', 'flow-3', 'flow-5']);
      expect(flows.prune(4)).toBe(0);
    } finally {
      store.close();
    }
  });
});
