import type { CloudQueueRequestKind, QueueGeneration } from '../queue-types.js';

/** Events of the reference cloud queue server. */
export interface QueueEvents {
  /** A queue was created, edited, deleted or got a new access token. */
  'queues.changed': {
    queueId: string;
    change: 'created' | 'edited' | 'deleted' | 'token';
    queueVersion: string | null;
    contextVersion: string | null;
    itemCount: number;
  };
  /**
   * How a generation of sample tracks is getting on: after each of its edits (`running`), then once
   * when it ends. `message`: why it ended early (`failed`: the queue or the item it follows went).
   */
  'queues.generation': QueueGeneration;
  /** A player called the queue's server (the editor shows what each player sees). */
  'queues.activity': {
    queueId: string;
    playerId: string | null;
    kind: CloudQueueRequestKind;
    at: number;
    status: number;
  };
}
