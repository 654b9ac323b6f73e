/**
 * What the demo's buttons do, each through the API an integration uses: the control API sent as
 * the sample integration's grant (`control.send` with `as`), never with the console's own token;
 * the queue and the fault through the admin API the Queues and Faults areas use.
 */
import type { ControlExchange } from '@engine-api/commands/player';
import type { QueueSummary } from '@engine-api/queue-types';
import type { Api } from '../../api';

/** The queue the demo plays: made the first time, found by its name after that. */
export const DEMO_QUEUE_NAME = 'Demo queue';
const DEMO_TRACKS = 20;
/** The preset the last step injects (main/engine/faults/presets.ts). */
export const DEMO_FAULT_PRESET = '503-storm';
/**
 * The label of the demo's own storm: closing the demo takes back the rules it names, whichever tab
 * added them, and never the same preset a user added in the Faults area.
 */
export const DEMO_STORM_LABEL = '503 storm (guided demo)';

/** A control call sent as `grantId`; an answer of 400 or more fails with what the API said. */
export async function sendAs(
  api: Api,
  grantId: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<ControlExchange> {
  const exchange = await api.call('control.send', {
    method,
    path,
    ...(body === undefined ? {} : { body }),
    as: { grantId },
  });
  if (exchange.status >= 400)
    throw new Error(
      `${method} ${path} answered ${exchange.status}: ${typeof exchange.body === 'string' ? exchange.body : JSON.stringify(exchange.body)}`,
    );
  return exchange;
}

/** The demo queue, made with sample tracks and playback-action reports when there is none. */
export async function demoQueue(api: Api, queues: readonly QueueSummary[]): Promise<QueueSummary> {
  const found = queues.find((q) => q.name === DEMO_QUEUE_NAME && q.itemCount > 0);
  if (found) return found;
  // Reports on every playback action, so the skip and the pause reach the server at once.
  const queue = await api.call('queues.create', { name: DEMO_QUEUE_NAME, reports: { sendPlaybackActions: true } });
  await api.call('queues.items.generate', { id: queue.id, count: DEMO_TRACKS });
  return queue;
}

/** Loads the queue on the group's player and plays it, making the session first if it has none. */
export async function playQueue(
  api: Api,
  grantId: string,
  target: { groupId: string; sessionId: string | null },
  queue: QueueSummary,
): Promise<ControlExchange> {
  let sessionId = target.sessionId;
  if (!sessionId) {
    const created = await sendAs(
      api,
      grantId,
      'POST',
      `/api/v1/groups/${encodeURIComponent(target.groupId)}/playbackSession:1`,
      { appId: 'com.cloudqueueconsole.demo', appContext: 'guided-demo' },
    );
    sessionId = (created.body as { sessionId?: string }).sessionId ?? null;
    if (!sessionId) throw new Error('the control API created no session');
  }
  return sendAs(
    api,
    grantId,
    'POST',
    `/api/v1/playbackSessions/${encodeURIComponent(sessionId)}/playbackSession:1/loadCloudQueue`,
    {
      queueBaseUrl: queue.queueBaseUrl,
      httpAuthorization: queue.httpAuthorization,
      playOnCompletion: true,
    },
  );
}

/** Injects the 503 storm and has the player send a refresh into it, which it then retries. */
export async function injectAndTrigger(api: Api, playerId: string): Promise<string> {
  const preset = (await api.call('faults.presets', {})).find((p) => p.id === DEMO_FAULT_PRESET);
  if (!preset) throw new Error(`the engine has no ${DEMO_FAULT_PRESET} preset`);
  const rule = await api.call('faults.add', { ...preset.rule, label: DEMO_STORM_LABEL });
  await api.call('players.trigger', { id: playerId, request: 'refresh' });
  return rule.id;
}
