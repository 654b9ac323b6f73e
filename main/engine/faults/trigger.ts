/**
 * "Trigger now" next to a fault rule: which request of which player the rule waits
 * for, sent at once (player/trigger.ts sends it as the player would). The request is picked from
 * the rule's match and checked against it as `decide` will check it, on the player's own queue
 * URL, so a rule that would not fail what is sent is refused with the reason instead.
 */
import { EngineError } from '../api/errors.js';
import type { FaultRule, TriggerRequest, TriggerResult } from '../api/fault-types.js';
import { endpointUrl } from '../player/client.js';
import { PlaybackError } from '../player/errors.js';
import type { Player } from '../player/player.js';
import { matches, type RequestFacts } from './match.js';

export interface TriggerDeps {
  players: { all(): Player[]; forPlayer(id: string): Player | undefined };
  /** The console's own cloud queue server: a `cloudQueue` rule sees only the requests sent there. */
  ownCloudQueue(): string;
}

/** `itemWindow` reasons the player can be made to send now, by the request that sends them. */
const BY_REASON: Partial<Record<string, TriggerRequest>> = {
  refresh: 'refresh',
  skipNext: 'skipNext',
  skipPrev: 'skipPrev',
  pause: 'pause',
  play: 'play',
};

/** Why a reason cannot be sent on request: each is sent for a cause of its own. */
const OTHER_REASONS: Record<string, string> = {
  load: 'reason=load goes out with a loadCloudQueue: send one from the command bar (its example bodies have one)',
  skipToItem: 'reason=skipToItem goes out with a skipToItem command: send one from the command bar',
  resume: 'reason=resume goes out only when the user resumes a suspended session',
  queueCompleted:
    'reason=queueCompleted goes out when all audio of the window is fetched: let the queue play towards its end',
};

/** The requests a rule with no reason may wait for, tried in this order (least disturbing first). */
const WITHOUT_REASON: readonly {
  request: TriggerRequest;
  endpoint: 'itemWindow' | 'version' | 'context';
  reason?: string;
}[] = [
  { request: 'versionPoll', endpoint: 'version' },
  { request: 'refresh', endpoint: 'itemWindow', reason: 'refresh' },
  { request: 'context', endpoint: 'context' },
];

/** The request of `player` that `rule` would fail, or why there is none. */
export function requestForRule(
  rule: FaultRule,
  player: Player,
  ownCloudQueue: string,
): { request: TriggerRequest } | { why: string } {
  if (rule.spent) return { why: 'the rule is spent: its `times` are used up' };
  if (rule.target !== 'player' && rule.target !== 'cloudQueue') {
    return {
      why: `a ${rule.target} rule waits for requests the players do not send: only player and cloudQueue rules can be triggered`,
    };
  }
  const base = player.snapshot().queueBaseUrl;
  if (!base) return { why: `player ${player.id} has no queue loaded` };
  if (rule.target === 'cloudQueue' && !base.startsWith(ownCloudQueue)) {
    return {
      why: `player ${player.id} plays a queue of another server (${base}): a cloudQueue rule sees only the console's own server; target player instead`,
    };
  }
  if (rule.match.method !== undefined && rule.match.method.toUpperCase() !== 'GET') {
    return {
      why: 'only the player\u2019s GET requests can be sent on request: its POST /timePlayed reports go out on their own, at each track\u2019s end and while it plays',
    };
  }
  const facts = (endpoint: 'itemWindow' | 'version' | 'context', reason?: string): RequestFacts => ({
    method: 'GET',
    path: new URL(endpointUrl(base, endpoint)).pathname,
    ...(reason !== undefined ? { reason } : {}),
  });
  const { reason } = rule.match;
  if (reason !== undefined) {
    const request = BY_REASON[reason];
    if (!request) return { why: OTHER_REASONS[reason] ?? `the player never sends reason=${reason}` };
    if (!matches(rule.match, facts('itemWindow', reason)))
      return { why: `the rule names reason=${reason} but its path does not match GET ${facts('itemWindow').path}` };
    return { request };
  }
  const found = WITHOUT_REASON.find((candidate) => matches(rule.match, facts(candidate.endpoint, candidate.reason)));
  return found
    ? { request: found.request }
    : {
        why: `no request the player sends on request (GET /version, /itemWindow, /context under ${base}) matches the rule's path ${rule.match.path ?? ''}`,
      };
}

/** `faults.trigger`: the rule's request, sent by the named player or by the first one playing a queue. */
export async function triggerRule(
  deps: TriggerDeps,
  rule: FaultRule,
  playerId: string | undefined,
): Promise<TriggerResult> {
  const own = deps.ownCloudQueue();
  let player: Player;
  let picked: { request: TriggerRequest } | { why: string };
  if (playerId !== undefined) {
    const named = deps.players.forPlayer(playerId);
    if (!named) throw new EngineError('not_found', `no player ${playerId}`);
    player = named;
    picked = requestForRule(rule, player, own);
  } else {
    const candidates = deps.players
      .all()
      .filter((p) => p.snapshot().queueBaseUrl !== null && p.machineState !== 'IDLE' && p.machineState !== 'SUSPENDED');
    // Playing players first: a paused one sends most requests too, but a playing one is what the rule is for.
    candidates.sort((a, b) => Number(b.machineState === 'PLAYING') - Number(a.machineState === 'PLAYING'));
    if (candidates.length === 0)
      throw new EngineError(
        'conflict',
        'no player is playing a queue: load one on a player first (or name the player)',
      );
    const tries = candidates.map((p) => ({ player: p, picked: requestForRule(rule, p, own) }));
    const chosen = tries.find((t) => 'request' in t.picked) ?? tries[0]!;
    player = chosen.player;
    picked = chosen.picked;
  }
  if ('why' in picked)
    throw new EngineError('conflict', `rule ${rule.id} cannot be triggered on player ${player.id}: ${picked.why}`);
  return { ...(await sendTrigger(player, picked.request)), ruleId: rule.id };
}

/** `players.trigger`: a refusal of the player's becomes a conflict naming the reason. */
export async function sendTrigger(player: Player, request: TriggerRequest): Promise<TriggerResult> {
  try {
    return { playerId: player.id, request, ...(await player.trigger(request)) };
  } catch (error) {
    if (error instanceof PlaybackError) throw new EngineError('conflict', error.reason, { errorCode: error.errorCode });
    throw error;
  }
}
