/** A queue's row as the store takes it, empty: for tests of the repositories alone, below the model. */
import type { NewQueue } from '../store/repositories/queues.js';

export const emptyQueueRow = (id: string, name = id): NewQueue => ({
  id,
  name,
  createdAt: 0,
  queueVersion: 1,
  contextVersion: 1,
  nextItemSeq: 1,
  itemCount: 0,
  container: {},
  playbackPolicies: {},
  reports: {},
  accessToken: 't',
  tokenIssuedAt: 0,
  tokenExpiresAt: 1,
});
