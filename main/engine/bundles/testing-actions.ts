/**
 * The workbench's actions as data, for the round-trip property of repro bundles: what a user does
 * on the Player page (presets, custom rules, remove, move, Trigger now, Send now, the buttons, the
 * seek buttons, the command bar), in the Queues area (edits) and on the clock, each sent through
 * the command table exactly as the UI sends it, on a console whose clock only moves when told.
 */
import fc from 'fast-check';
import type { FaultAction, FaultMatch, FaultRuleInput, FaultTarget } from '../api/fault-types.js';
import type { PlayerTransition } from '../api/player-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { ScenarioReport } from '../api/scenario-types.js';
import type { TrafficSummary } from '../api/traffic-types.js';
import { FAULT_PRESETS } from '../faults/presets.js';
import { createEngine, type Engine } from '../index.js';
import { ManualWall } from '../testing/manual-wall.js';

export const PLAYER = 'player-kitchen';
export const GROUP = 'group-kitchen';

/** The targets a workbench rule is for: the console's cloud queue server, or the player's own client. */
const TARGETS = ['cloudQueue', 'player'] as const satisfies readonly FaultTarget[];
type RuleTarget = (typeof TARGETS)[number];

export type WorkbenchAction =
  | { kind: 'preset'; preset: string; target: RuleTarget }
  | { kind: 'rule'; rule: FaultRuleInput }
  /** `pick` chooses among the rules listed then (modulo their count); nothing happens without one. */
  | { kind: 'removeRule'; pick: number }
  | { kind: 'moveRule'; pick: number; toIndex: number }
  | { kind: 'triggerRule'; pick: number }
  | { kind: 'sendNow'; request: 'refresh' | 'versionPoll' | 'nextWindow' }
  | { kind: 'button'; action: 'play' | 'pause' | 'skipNext' | 'skipPrev' | 'resume' }
  | { kind: 'seek'; command: 'seek' | 'seekRelative'; millis: number }
  | { kind: 'skipToItem'; pick: number }
  | { kind: 'refreshCloudQueue' }
  | { kind: 'suspend' }
  /** loadCloudQueue of the same queue again, from one of its items (the command bar's load). */
  | { kind: 'load'; pick: number }
  | { kind: 'edit'; op: 'add' | 'delete' | 'move' | 'rename'; pick: number; to: number }
  | { kind: 'advance'; ms: number }
  /** The clock run at `speed` for a moment and stopped again (the status bar's speed radios, then Stop). */
  | { kind: 'speed'; speed: number };

export type ActionKind = WorkbenchAction['kind'];

export interface QueueSetup {
  durations: number[];
  limitedSkips: boolean;
  notifyUserIntent: boolean;
  /** Engine time the load's window takes to answer (a latency rule): the player leaves idle that long after its load call began. */
  loadLatencyMs?: number;
}

/** A console with its clock on a wall that never moves: engine time moves only by `advance`. */
export function freshConsole(): Promise<Engine> {
  return createEngine({ dataDir: null, port: 0, clockSpeed: 0, wall: new ManualWall() });
}

export interface Bench {
  engine: Engine;
  queue: QueueSummary;
  sessionId: string;
}

/**
 * The walkthrough's starting point: a queue of `setup` loaded and playing on Kitchen, sent as the
 * Player page's command bar sends it (createSession, loadCloudQueue through the control API).
 */
export async function playingOnKitchen(engine: Engine, setup: QueueSetup): Promise<Bench> {
  const queue = await engine.commands.run('queues.create', {
    name: 'Round trip',
    playbackPolicies: { limitedSkips: setup.limitedSkips, notifyUserIntent: setup.notifyUserIntent },
    items: setup.durations.map((durationMillis, i) => ({
      track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example/round-trip/${i + 1}.mp3`, durationMillis },
    })),
  });
  const session = await engine.commands.run('control.send', {
    method: 'POST',
    path: `/api/v1/groups/${GROUP}/playbackSession:1`,
    body: { appId: 'com.example.round-trip', appContext: 'property' },
  });
  if (session.status !== 200)
    throw new Error(`createSession answered ${session.status}: ${JSON.stringify(session.body)}`);
  const sessionId = (session.body as { sessionId: string }).sessionId;
  if (setup.loadLatencyMs)
    await engine.commands.run('faults.add', {
      target: 'cloudQueue',
      match: { path: '/itemWindow', reason: 'load' },
      action: { type: 'latency', ms: setup.loadLatencyMs },
      times: 1,
      label: 'slow load',
    });
  // Not awaited first: a slow load answers only once the clock moves.
  const loading = engine.commands.run('control.send', {
    method: 'POST',
    path: `/api/v1/playbackSessions/${sessionId}/playbackSession:1/loadCloudQueue`,
    body: { queueBaseUrl: queue.queueBaseUrl, httpAuthorization: queue.httpAuthorization, playOnCompletion: true },
  });
  if (setup.loadLatencyMs) {
    await engine.clock.advance(0);
    await engine.commands.run('clock.set', { advanceMs: setup.loadLatencyMs });
  }
  const load = await loading;
  if (load.status !== 200) throw new Error(`loadCloudQueue answered ${load.status}: ${JSON.stringify(load.body)}`);
  await engine.commands.run('clock.set', { advanceMs: 1_000 });
  const bench = { engine, queue, sessionId };
  await settle(bench);
  return bench;
}

/**
 * Does one action as the UI does it. A refusal is an answer the user sees (a 409, a control API
 * error), not a failure of the run. An action still waiting once everything in flight has settled
 * waits for engine time (a retry after Retry-After): it runs on while later actions move the clock.
 */
export async function perform(bench: Bench, action: WorkbenchAction): Promise<void> {
  const { engine } = bench;
  const run = engine.commands.run.bind(engine.commands);
  const rules = async () => run('faults.list');
  const items = async () => (await run('queues.get', { id: bench.queue.id })).items.map((i) => i.id);
  const session = `/api/v1/playbackSessions/${bench.sessionId}/playbackSession:1`;
  const work = (async (): Promise<unknown> => {
    switch (action.kind) {
      case 'preset':
        return run('faults.applyPreset', { id: action.preset, target: action.target });
      case 'rule':
        return run('faults.add', action.rule);
      case 'removeRule': {
        const list = await rules();
        return list.length ? run('faults.remove', { id: list[action.pick % list.length]!.id }) : undefined;
      }
      case 'moveRule': {
        const list = await rules();
        return list.length
          ? run('faults.move', { id: list[action.pick % list.length]!.id, toIndex: action.toIndex })
          : undefined;
      }
      case 'triggerRule': {
        // The workbench's Trigger now names its own player.
        const list = await rules();
        return list.length
          ? run('faults.trigger', { id: list[action.pick % list.length]!.id, playerId: PLAYER })
          : undefined;
      }
      case 'sendNow':
        return run('players.trigger', { id: PLAYER, request: action.request });
      case 'button':
        return run('players.act', { id: PLAYER, action: action.action });
      case 'seek': {
        // The seek buttons name the item they were pressed for.
        const { itemId } = await run('players.detail', { id: PLAYER });
        const body = action.command === 'seek' ? { positionMillis: action.millis } : { deltaMillis: action.millis };
        return run('control.send', {
          method: 'POST',
          path: `/api/v1/groups/${GROUP}/playback:1/${action.command}`,
          body: itemId ? { ...body, itemId } : body,
        });
      }
      case 'skipToItem': {
        const ids = await items();
        return run('control.send', {
          method: 'POST',
          path: `${session}/skipToItem`,
          body: { itemId: ids[action.pick % ids.length]! },
        });
      }
      case 'refreshCloudQueue':
        return run('control.send', { method: 'POST', path: `${session}/refreshCloudQueue`, body: {} });
      case 'suspend':
        return run('control.send', { method: 'POST', path: `${session}/suspend`, body: {} });
      case 'load': {
        const ids = await items();
        const { queueBaseUrl, httpAuthorization } = bench.queue;
        return run('control.send', {
          method: 'POST',
          path: `${session}/loadCloudQueue`,
          body: { queueBaseUrl, httpAuthorization, itemId: ids[action.pick % ids.length]!, playOnCompletion: true },
        });
      }
      case 'edit':
        return edit(bench, action, await items());
      case 'advance':
        return run('clock.set', { advanceMs: action.ms });
      case 'speed':
        await run('clock.set', { speed: action.speed });
        return run('clock.set', { speed: 0 });
    }
  })();
  // As the UI does, the answer is awaited, and what it set going settles before the next action.
  // Not tracked by the clock: an action waiting for a timer (a skip's retry) would hold
  // `advance(0)` for its whole settle bound of wall time, and only a later clock step ends it.
  const answered = work.then(
    () => true,
    () => true,
  );
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    await settle(bench);
    if (await Promise.race([answered, Promise.resolve(false)])) break;
  }
  await settle(bench);
}

/** Settles an action waits through for its answer before it counts as waiting for engine time. */
const SETTLE_ROUNDS = 3;

async function edit(bench: Bench, action: Extract<WorkbenchAction, { kind: 'edit' }>, ids: string[]): Promise<unknown> {
  const run = bench.engine.commands.run.bind(bench.engine.commands);
  const id = bench.queue.id;
  const itemId = ids[action.pick % ids.length]!;
  const other = ids[action.to % ids.length]!;
  switch (action.op) {
    case 'add':
      return run('queues.items.add', {
        id,
        items: [
          {
            track: {
              name: `Added ${action.to}`,
              mediaUrl: `https://media.example/round-trip/added-${action.to}.mp3`,
              durationMillis: 40_000,
            },
          },
        ],
        afterItemId: itemId,
      });
    case 'delete':
      // The editor keeps a queue to play: its last items are not removed here.
      return ids.length > 2 ? run('queues.items.delete', { id, itemId }) : undefined;
    case 'move':
      return itemId === other
        ? undefined
        : run('queues.items.move', { id, itemIds: [itemId], afterItemId: action.to % 3 === 0 ? null : other });
    case 'rename':
      return run('queues.items.update', { id, itemId, track: { name: `Renamed ${action.to}` } });
  }
}

/**
 * Lets what the last action started settle (the requests in flight answered), so the export sees
 * every answer the user saw; engine time stays where it is. `clock.set` skips a zero advance.
 */
export async function settle(bench: Bench): Promise<void> {
  await bench.engine.clock.advance(0);
}

// ------------------------------------------------------------------------------ what is compared

/** Each player's transition rows, in order, from a list of transitions. */
export function rowsByPlayer(transitions: readonly PlayerTransition[]): Record<string, string[]> {
  const rows: Record<string, string[]> = {};
  for (const t of [...transitions].sort((a, b) => a.seq - b.seq)) (rows[t.playerId] ??= []).push(t.transition);
  return rows;
}

/** Every transition a console's players went through, oldest first. */
export async function allTransitions(engine: Engine): Promise<PlayerTransition[]> {
  const players = await engine.commands.run('players.list');
  const lists = await Promise.all(
    players.map((p) => engine.commands.run('players.transitions', { id: p.id, limit: 5_000 })),
  );
  return lists.flat().sort((a, b) => a.seq - b.seq);
}

/** One exchange as a replay can repeat it: ids that every console hands out afresh are left out. */
export interface Exchange {
  atMs: number;
  target: string;
  method: string;
  endpoint: string;
  reason: string | null;
  status: number | null;
  outcome: string;
  retry: number | null;
  fault: string | null;
}

/** The exchanges of the player and the cloud queue server since `from` (engine time), in a stable order. */
export async function exchangesSince(engine: Engine, from: number): Promise<Exchange[]> {
  const rows: TrafficSummary[] = [];
  for (let offset = 0; ; offset += 1_000) {
    const page = await engine.commands.run('traffic.page', { offset, limit: 1_000 });
    rows.push(...page.rows);
    if (rows.length >= page.total || page.rows.length === 0) break;
  }
  return rows
    .filter((r) => (r.target === 'player' || r.target === 'cloudQueue' || r.target === 'control') && r.at >= from)
    .map((r) => ({
      atMs: r.at - from,
      target: r.target,
      method: r.method,
      endpoint: r.path.split('?')[0]!.split('/').at(-1)!,
      reason: r.reason,
      status: r.status,
      outcome: r.outcome,
      retry: r.retry,
      fault: r.fault ? `${r.fault.action}` : null,
    }))
    .sort((a, b) => a.atMs - b.atMs || JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

export interface Replay {
  report: ScenarioReport;
  exchanges: Exchange[];
  notes: string[];
}

/**
 * Replays a bundle as `cloud-queue-console run FILE` does (main/cli/run.ts): a fresh console in
 * memory, `bundles.import`, then `scenarios.run` of the scenario it saved. The wall stands still,
 * as on the exporting console, so the clock steps are the only time that passes.
 */
export async function replay(bundle: unknown): Promise<Replay> {
  const engine = await freshConsole();
  try {
    const imported = await engine.commands.run('bundles.import', bundle);
    const report = await engine.commands.run('scenarios.run', { id: imported.scenario.id });
    return {
      report,
      exchanges: await exchangesSince(engine, report.startedAt),
      notes: [...imported.notes, ...imported.warnings],
    };
  } finally {
    await engine.close();
  }
}

// ------------------------------------------------------------------------------------ arbitraries

const presetArb = fc.record({
  kind: fc.constant('preset' as const),
  preset: fc.constantFrom(...FAULT_PRESETS.map((p) => p.id)),
  target: fc.constantFrom(...TARGETS),
});

const matchArb: fc.Arbitrary<FaultMatch> = fc.oneof(
  fc.constant<FaultMatch>({}),
  fc.record({
    method: fc.constant('GET'),
    path: fc.constant('/itemWindow'),
    reason: fc.constantFrom('refresh', 'skipNext', 'skipPrev', 'skipToItem', 'load'),
  }),
  fc.constant<FaultMatch>({ method: 'GET', path: '/itemWindow' }),
  fc.constant<FaultMatch>({ method: 'GET', path: '/version' }),
  fc.constant<FaultMatch>({ method: 'GET', path: '/context' }),
  fc.constant<FaultMatch>({ method: 'POST', path: '/timePlayed' }),
);

const faultActionArb: fc.Arbitrary<FaultAction> = fc.oneof(
  fc.record({ type: fc.constant('status' as const), status: fc.constantFrom(404, 500, 503) }),
  fc.constant<FaultAction>({ type: 'status', status: 503, retryAfter: 3 }),
  fc.constant<FaultAction>({ type: 'status', status: 403, rejectedReason: 'SKIP_LIMIT_REACHED' }),
  fc.constant<FaultAction>({ type: 'timeout' }),
  fc.constant<FaultAction>({ type: 'drop' }),
  fc.record({ type: fc.constant('latency' as const), ms: fc.constantFrom(500, 2_000) }),
  fc.constant<FaultAction>({ type: 'malformed' }),
);

/** A custom rule as the rule form makes one: a target, a match, an action, and maybe a count or a seeded probability. */
const ruleArb = fc
  .record(
    {
      target: fc.constantFrom(...TARGETS),
      match: matchArb,
      action: faultActionArb,
      times: fc.integer({ min: 1, max: 3 }),
      chance: fc.record({ probability: fc.constantFrom(0.5), seed: fc.integer({ min: 0, max: 1_000 }) }),
      label: fc.constantFrom('custom A', 'custom B'),
    },
    { requiredKeys: ['target', 'match', 'action', 'label'] },
  )
  .map(({ chance, ...rule }): WorkbenchAction => ({ kind: 'rule', rule: { ...rule, ...chance } }));

const pick = fc.nat({ max: 40 });

export const ACTION_ARBS: Record<ActionKind, fc.Arbitrary<WorkbenchAction>> = {
  preset: presetArb,
  rule: ruleArb,
  removeRule: fc.record({ kind: fc.constant('removeRule' as const), pick }),
  moveRule: fc.record({ kind: fc.constant('moveRule' as const), pick, toIndex: fc.nat({ max: 3 }) }),
  triggerRule: fc.record({ kind: fc.constant('triggerRule' as const), pick }),
  sendNow: fc.record({
    kind: fc.constant('sendNow' as const),
    request: fc.constantFrom('refresh' as const, 'versionPoll' as const, 'nextWindow' as const),
  }),
  button: fc.record({
    kind: fc.constant('button' as const),
    action: fc.constantFrom(
      'play' as const,
      'pause' as const,
      'skipNext' as const,
      'skipPrev' as const,
      'resume' as const,
    ),
  }),
  seek: fc.oneof(
    fc.record({
      kind: fc.constant('seek' as const),
      command: fc.constant('seekRelative' as const),
      millis: fc.constantFrom(-10_000, 10_000),
    }),
    fc.record({
      kind: fc.constant('seek' as const),
      command: fc.constant('seek' as const),
      millis: fc.constantFrom(0, 5_000, 15_000),
    }),
  ),
  skipToItem: fc.record({ kind: fc.constant('skipToItem' as const), pick }),
  refreshCloudQueue: fc.constant({ kind: 'refreshCloudQueue' as const }),
  suspend: fc.constant({ kind: 'suspend' as const }),
  load: fc.record({ kind: fc.constant('load' as const), pick }),
  edit: fc.record({
    kind: fc.constant('edit' as const),
    op: fc.constantFrom('add' as const, 'delete' as const, 'move' as const, 'rename' as const),
    pick,
    to: pick,
  }),
  advance: fc.record({
    kind: fc.constant('advance' as const),
    ms: fc.constantFrom(1_000, 3_000, 10_000, 30_000, 60_000, 600_000),
  }),
  speed: fc.record({ kind: fc.constant('speed' as const), speed: fc.constantFrom(1, 10, 60) }),
};

export const setupArb: fc.Arbitrary<QueueSetup> = fc.record({
  durations: fc.array(fc.constantFrom(20_000, 45_000, 180_000), { minLength: 6, maxLength: 16 }),
  limitedSkips: fc.boolean(),
  notifyUserIntent: fc.boolean(),
});

/** 1–8 actions of the given kinds, clock advances weighted up so that retries and track ends play out. */
export function actionsArb(kinds: readonly ActionKind[]): fc.Arbitrary<WorkbenchAction[]> {
  const weighted = kinds.map((kind) => ({ weight: kind === 'advance' ? 3 : 1, arbitrary: ACTION_ARBS[kind] }));
  return fc.array(fc.oneof(...weighted), { minLength: 1, maxLength: 8 });
}

/** An action as one short line, for counterexamples people read. */
export function describeAction(action: WorkbenchAction): string {
  const { kind, ...rest } = action;
  return `${kind} ${JSON.stringify(rest)}`;
}
