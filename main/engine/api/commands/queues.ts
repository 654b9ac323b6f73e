/**
 * Commands of the reference cloud queue server and its live editor (docs/contract/console.md §7 `queues`). The
 * REST shapes of POST/GET/PATCH /queues are the contract's; the rest serve the editor.
 */
import Type from 'typebox';
import { command, WHOLE_QUEUE_BODY_LIMIT } from '../command.js';
import { groupedDigits } from '../grouped-digits.js';
import { QUEUE_NAME_MAX_CHARS } from '../queue-types.js';
import type {
  QueueActivityView,
  QueueContext,
  QueueEditResult,
  QueueItem,
  QueueItemsPage,
  QueueSummary,
  QueueView,
  TimePlayedRecordView,
} from '../queue-types.js';
import { Id, Strict, Whole } from './shared.js';

const Text = Type.String({ maxLength: 4096 });
const Named = Type.Object({ name: Type.Optional(Text) });

export const TrackInput = Type.Object({
  name: Type.Optional(Text),
  mediaUrl: Type.Optional(Text),
  contentType: Type.Optional(Text),
  durationMillis: Type.Optional(Whole),
  imageUrl: Type.Optional(Text),
  artist: Type.Optional(Named),
  album: Type.Optional(Named),
});

const PolicyValue = Type.Union([Type.Boolean(), Type.Number(), Type.String({ maxLength: 256 })]);

const Flag = Type.Optional(Type.Boolean());
export const PlaybackPoliciesInput = Type.Object(
  {
    canSkip: Flag,
    limitedSkips: Flag,
    canSkipBack: Flag,
    canSeek: Flag,
    canSkipToItem: Flag,
    canRepeat: Flag,
    canRepeatOne: Flag,
    canCrossfade: Flag,
    canShuffle: Flag,
    canResume: Flag,
    notifyUserIntent: Flag,
    pauseTtlSec: Type.Optional(Type.Integer({ minimum: 0, maximum: 31_536_000 })),
  },
  // Policies the console does not know still reach the player, for trying out new ones.
  { additionalProperties: PolicyValue },
);

export const ItemInput = Type.Object({
  /** In PATCH `items`: an id the queue already has keeps that item's id; others get new ids. */
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  track: TrackInput,
  // The same policies as the queue's, checked the same way: the playing item's override them.
  policies: Type.Optional(PlaybackPoliciesInput),
});

const Millis = Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000 }));
export const ReportsInput = Type.Object(
  { sendUpdateAfterMillis: Millis, periodicIntervalMillis: Millis, sendPlaybackActions: Flag },
  Strict,
);

/** The container's name is the queue's and its id is the queue's: other fields are ignored. */
export const ContainerInput = Type.Object({ type: Type.Optional(Text), imageUrl: Type.Optional(Text) });

const QueueName = Type.String({ minLength: 1, maxLength: QUEUE_NAME_MAX_CHARS });
/**
 * The most items one call may create, replace or add (docs/contract/console.md §9): 100,000 sample
 * items are written in steps, but checking them still takes a turn of ~15–100 ms, explaining a bad
 * one ~100 ms; twice that would pass the 250 ms any admin call may hold the listeners. Longer
 * queues are built by several calls or `queues.items.generate`. A file may hold more (the schema
 * takes up to 2,000,000, so that the refusal can say how to go on).
 */
export const MAX_ITEMS_PER_WRITE = 100_000;
/** Bodies of calls that carry items: 100,000 sample items are about 30 MB, long ones fit too. */
export const QUEUE_WRITE_BODY_LIMIT = 128 * 1024 * 1024;
const Items = Type.Array(ItemInput, {
  maxItems: 2_000_000,
  description: `At most ${groupedDigits(MAX_ITEMS_PER_WRITE)} a call (the schema takes more only so that the refusal can say how to split the call).`,
});
const TokenLifetime = Type.Integer({ minimum: 1, maximum: 10 * 365 * 86_400 });
/** Where new or moved items go: after this item, or at the start when null. */
const AfterItemId = Type.Union([Type.String({ minLength: 1 }), Type.Null()]);
const ItemIds = Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 2_000_000 });

/** The body of POST /queues, and what an exported queue file holds. */
export const QueueInput = Type.Object({
  name: Type.Optional(QueueName),
  items: Type.Optional(Items),
  playbackPolicies: Type.Optional(PlaybackPoliciesInput),
  reports: Type.Optional(ReportsInput),
  container: Type.Optional(ContainerInput),
  accessTokenLifetimeSec: Type.Optional(TokenLifetime),
});

export const queueCommandSpecs = {
  'queues.list': command<QueueSummary[]>()({
    summary: 'Every queue of the reference cloud queue server, without items.',
    input: Type.Object({}),
    http: { method: 'GET', path: '/queues' },
  }),
  'queues.create': command<QueueSummary>()({
    summary: 'Creates a queue (with up to 100,000 items); answers its id, queueBaseUrl, accessToken and queueVersion.',
    input: QueueInput,
    http: { method: 'POST', path: '/queues' },
    bodyLimit: QUEUE_WRITE_BODY_LIMIT,
  }),
  'queues.get': command<QueueView>()({
    summary:
      'One queue with its context and all its items (each with its id), up to 10,000 items; a longer one is read in pages (/items).',
    input: Id,
    http: { method: 'GET', path: '/queues/:id' },
    largeAnswer: true,
  }),
  'queues.context': command<QueueContext>()({
    summary: 'The queue as GET /context shows it to players: versions, container, reports, policies.',
    input: Id,
    http: { method: 'GET', path: '/queues/:id/context' },
  }),
  'queues.update': command<QueueSummary>()({
    summary: 'Edits a queue: `items` (up to 100,000) replaces the list (known ids kept), policies and reports merge.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      name: Type.Optional(QueueName),
      items: Type.Optional(Items),
      playbackPolicies: Type.Optional(PlaybackPoliciesInput),
      reports: Type.Optional(ReportsInput),
      container: Type.Optional(ContainerInput),
    }),
    http: { method: 'PATCH', path: '/queues/:id' },
    bodyLimit: QUEUE_WRITE_BODY_LIMIT,
  }),
  'queues.delete': command<Record<string, never>>()({
    summary: 'Deletes a queue with its items and reports; players calling it get 404.',
    input: Id,
    http: { method: 'DELETE', path: '/queues/:id' },
  }),
  'queues.token.issue': command<QueueSummary>()({
    summary: 'Issues a new access token for the queue (the old one stops working).',
    input: Type.Object({ id: Type.String({ minLength: 1 }), lifetimeSec: Type.Optional(TokenLifetime) }),
    http: { method: 'POST', path: '/queues/:id/token' },
  }),
  'queues.items.page': command<QueueItemsPage>()({
    summary: 'A stretch of the queue by position, with the timePlayed report counts of each item.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      offset: Type.Optional(Whole),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    }),
    http: { method: 'GET', path: '/queues/:id/items' },
  }),
  'queues.items.locate': command<{ index: number; queueVersion: string }>()({
    summary: 'Where an item stands in the queue (0-based).',
    input: Type.Object({ id: Type.String({ minLength: 1 }), itemId: Type.String({ minLength: 1 }) }),
    http: { method: 'GET', path: '/queues/:id/items/:itemId/index' },
  }),
  'queues.items.add': command<QueueEditResult>()({
    summary: 'Adds up to 100,000 items after `afterItemId` (null: at the start; absent: at the end).',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      items: Type.Array(ItemInput, {
        minItems: 1,
        maxItems: 2_000_000,
        description: `At most ${groupedDigits(MAX_ITEMS_PER_WRITE)} a call (the schema takes more only so that the refusal can say how to split the call).`,
      }),
      afterItemId: Type.Optional(AfterItemId),
    }),
    http: { method: 'POST', path: '/queues/:id/items' },
    bodyLimit: QUEUE_WRITE_BODY_LIMIT,
  }),
  'queues.items.generate': command<QueueEditResult>()({
    summary:
      'Adds N sample tracks after `afterItemId` (null: at the start; absent: at the end), in edits of 5,000 (each bumps queueVersion; `queues.generation` says how far it got). Answers when done or stopped, with the ids made; a run cut short by an edit (its queue deleted, its last item removed) fails with `details` {done, total, itemIds}.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      count: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
      afterItemId: Type.Optional(AfterItemId),
    }),
    http: { method: 'POST', path: '/queues/:id/items/generate' },
  }),
  'queues.items.generate.stop': command<{ stopped: boolean }>()({
    summary:
      "Stops a queue's generation after its current edit and answers once it has ended; what was made stays. `stopped`: whether one was running.",
    input: Type.Object({ id: Type.String({ minLength: 1 }) }),
    http: { method: 'POST', path: '/queues/:id/items/generate/stop' },
  }),
  'queues.items.update': command<QueueItem>()({
    summary: "Changes an item's track and/or policies (null policies: none); its id stays.",
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      itemId: Type.String({ minLength: 1 }),
      track: Type.Optional(TrackInput),
      policies: Type.Optional(Type.Union([PlaybackPoliciesInput, Type.Null()])),
    }),
    http: { method: 'PATCH', path: '/queues/:id/items/:itemId' },
  }),
  'queues.items.delete': command<QueueEditResult>()({
    summary: 'Removes one item.',
    input: Type.Object({ id: Type.String({ minLength: 1 }), itemId: Type.String({ minLength: 1 }) }),
    http: { method: 'DELETE', path: '/queues/:id/items/:itemId' },
  }),
  'queues.items.remove': command<QueueEditResult>()({
    summary: 'Removes several items at once.',
    input: Type.Object({ id: Type.String({ minLength: 1 }), itemIds: ItemIds }),
    http: { method: 'POST', path: '/queues/:id/items/remove' },
    bodyLimit: WHOLE_QUEUE_BODY_LIMIT,
  }),
  'queues.items.move': command<QueueEditResult>()({
    summary: 'Moves items (in their queue order) to after `afterItemId`, or to the start when null.',
    input: Type.Object({ id: Type.String({ minLength: 1 }), itemIds: ItemIds, afterItemId: AfterItemId }),
    http: { method: 'POST', path: '/queues/:id/items/move' },
  }),
  'queues.activity': command<QueueActivityView>()({
    summary: "Each player's last requests to the queue: the window it last fetched, its last report.",
    input: Id,
    http: { method: 'GET', path: '/queues/:id/activity' },
  }),
  'queues.reports': command<TimePlayedRecordView[]>()({
    summary: 'timePlayed reports received for the queue (or one item), newest first.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      itemId: Type.Optional(Type.String({ minLength: 1 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    }),
    http: { method: 'GET', path: '/queues/:id/reports' },
    largeAnswer: true,
  }),
};
