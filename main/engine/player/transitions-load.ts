/**
 * loadCloudQueue: the context and first window, a track started at once, and what a failed load puts back.
 * Rows of the transition table (transitions.ts puts the groups together, in this order).
 */
import { ANY, type Transition } from './transition-schema.js';

export const LOAD_ROWS: readonly Transition[] = [
  // loadCloudQueue (docs/contract/platform.md §3 last row, §4.3 load, §7.3; docs/contract/console.md §3)
  {
    id: 'load-begins',
    from: ANY,
    on: ['load'],
    to: 'same',
    effects: ['beginLoad'],
    note: 'loadCloudQueue: GET /context, then the first GET /itemWindow; the state holds until the window answers',
  },
  {
    id: 'load-starts-at-once',
    from: ANY,
    on: ['loadStartedAtOnce'],
    to: 'BUFFERING',
    effects: ['startMetadataTrack'],
    note: 'with track metadata and no limitedSkips the player starts at once; its first window request is `refresh` (§4.3)',
  },
  {
    id: 'load-answered-at-edge-plays',
    from: ['BUFFERING'],
    on: ['loadAnswered'],
    guard: 'startedEdgeAnswerHasNext',
    to: 'BUFFERING',
    effects: ['adoptLoad', 'finalReport', 'startNext', 'answerLoad'],
    note: 'the track started at once (or one a skipToItem started since) ended before the load was answered and waited at the edge; the answer brings the next track: the ended one gets its final report, the next one plays',
  },
  {
    id: 'load-answered-at-edge-ends',
    from: ['BUFFERING'],
    on: ['loadAnswered'],
    guard: 'startedEdgeAnswerEnds',
    to: 'PAUSED',
    effects: ['adoptLoad', 'finalReport', 'stopAtEnd', 'armPauseTtl', 'answerLoad'],
    note: 'the track started at once (or one a skipToItem started since) ended before the load was answered, and the answer says it is the queue\u2019s last: final report, pause at its end',
  },
  {
    id: 'load-answered-at-edge-asks',
    from: ['BUFFERING'],
    on: ['loadAnswered'],
    guard: 'startedEdgeAnswerFallsShort',
    to: 'same',
    effects: ['adoptLoad', 'askAgainAtEdge', 'answerLoad'],
    note: 'the track started at once (or one a skipToItem started since) ended before the load was answered; the answer ends with it but says the queue goes on: keep waiting at the edge, asking (reason=refresh) for what follows it',
  },
  {
    id: 'load-answered-already-started',
    from: ANY,
    on: ['loadAnswered'],
    guard: 'startedAtOnceNotAtEdge',
    to: 'same',
    effects: ['adoptLoad', 'answerLoad'],
    note: 'the window arrives for a track that already started',
  },
  {
    id: 'load-answered-plays',
    from: ANY,
    on: ['loadAnswered'],
    guard: 'loadedToPlay',
    to: 'BUFFERING',
    effects: ['adoptLoad', 'bufferCurrent', 'answerLoad'],
    note: 'loaded with playOnCompletion: fetch the first track and play',
  },
  {
    id: 'load-answered-paused',
    from: ANY,
    on: ['loadAnswered'],
    fallback: true,
    to: 'PAUSED',
    effects: ['adoptLoad', 'armPauseTtl', 'answerLoad'],
    note: 'loaded without playOnCompletion: ready, paused on the first track (pauseTtlSec runs from here)',
  },
  {
    id: 'load-failed',
    from: ANY,
    on: ['loadFailed'],
    to: 'previous',
    effects: ['restorePrevious', 'failLoad'],
    note: 'docs/contract/platform.md §3/§7.3: the load fails with the error, no retry, the player stays in its previous state (a load that started its track at once puts back what it replaced; otherwise the player went on with its queue, and goes on)',
  },
];
