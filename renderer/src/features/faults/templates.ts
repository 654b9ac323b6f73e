/**
 * Starter scenarios for the seed's failure cases, written for one queue and one group's player.
 * Each stops the engine clock first so a run is exact (CI gets the same answer every time), loads
 * the queue with the console's own token, and checks the transitions the seed promises.
 * templates.test.ts runs every one against a real engine: a template that fails is a bug.
 */
import type { ScenarioStep } from '../../../../main/engine/api/scenario-types';

export interface TemplateTarget {
  queueId: string;
  httpAuthorization: string;
  groupId: string;
  playerId: string;
}

export interface ScenarioDraft {
  id?: string;
  name: string;
  description?: string;
  steps: ScenarioStep[];
}

export interface ScenarioTemplate {
  id: string;
  label: string;
  build(target: TemplateTarget): ScenarioDraft;
}

/** Stop the clock, create a session (saved as `${session}`), load the queue and let it play. */
function loadAndPlay({ queueId, httpAuthorization, groupId, playerId }: TemplateTarget): ScenarioStep[] {
  return [
    { type: 'clock', speed: 0 },
    { type: 'clearFaults' },
    { type: 'command', method: 'POST', path: `/api/v1/groups/${groupId}/playbackSession:1`, body: { appId: 'com.example.scenario', appContext: 'scenario' }, save: { session: 'sessionId' } },
    {
      type: 'command',
      method: 'POST',
      path: '/api/v1/playbackSessions/${session}/playbackSession:1/loadCloudQueue',
      body: { queueBaseUrl: `\${cloudQueue}/queues/${queueId}/v2.3/`, httpAuthorization, playOnCompletion: true },
    },
    { type: 'clock', advanceMs: 1_000 },
    { type: 'expect', playerId, state: 'PLAYING', transitions: ['load-answered-plays', 'audio-ready'] },
  ];
}

const refresh: ScenarioStep = { type: 'command', method: 'POST', path: '/api/v1/playbackSessions/${session}/playbackSession:1/refreshCloudQueue' };

export const SCENARIO_TEMPLATES: ScenarioTemplate[] = [
  {
    id: '503-storm',
    label: '503 storm during playback',
    build: (t) => ({
      name: '503 storm during playback',
      description: 'Every cloud queue request answers 503 with Retry-After: 3. The version poll (10 min in) and its three background retries fail; the session stays valid and the window plays out (seed §7.4).',
      steps: [
        ...loadAndPlay(t),
        { type: 'fault', rule: { target: 'cloudQueue', match: {}, action: { type: 'status', status: 503, retryAfter: 3 }, label: '503 storm' } },
        { type: 'clock', advanceMs: 630_000 },
        { type: 'expect', playerId: t.playerId, state: 'PLAYING', transitions: ['background-exhausted'] },
        { type: 'clearFaults' },
      ],
    }),
  },
  {
    id: '404-item-window',
    label: '404 on itemWindow empties the queue',
    build: (t) => ({
      name: '404 on itemWindow empties the queue',
      description: 'refreshCloudQueue asks for a window and gets 404: the player stops, empties its queue and goes idle (seed §3, §7.1).',
      steps: [
        ...loadAndPlay(t),
        { type: 'fault', rule: { target: 'cloudQueue', match: { method: 'GET', path: '/itemWindow' }, action: { type: 'status', status: 404 }, times: 1, label: '404 on itemWindow' } },
        refresh,
        { type: 'expect', playerId: t.playerId, state: 'IDLE', transitions: ['refresh-command', 'window-not-found'] },
      ],
    }),
  },
  {
    id: 'refresh-timeout',
    label: 'Timeout on the background refresh',
    build: (t) => ({
      name: 'Timeout on the background refresh',
      description: 'GET /itemWindow?reason=refresh never answers, four tries 10 s apart: the retries run out, playback goes on with the window it has (seed §7.4).',
      steps: [
        ...loadAndPlay(t),
        { type: 'fault', rule: { target: 'cloudQueue', match: { method: 'GET', path: '/itemWindow', reason: 'refresh' }, action: { type: 'timeout' }, times: 4, label: 'refresh timeout' } },
        refresh,
        { type: 'clock', advanceMs: 45_000 },
        { type: 'expect', playerId: t.playerId, state: 'PLAYING', transitions: ['refresh-command', 'background-exhausted'] },
      ],
    }),
  },
  {
    id: '500-on-load',
    label: '500 on load keeps the previous state',
    build: (t) => ({
      name: '500 on load keeps the previous state',
      description: 'A second loadCloudQueue whose first GET /itemWindow answers 500: the command fails with ERROR_CLOUD_QUEUE_SERVER, no retry, and the player keeps playing what it had (seed §3, §7.3).',
      steps: [
        ...loadAndPlay(t),
        { type: 'fault', rule: { target: 'cloudQueue', match: { method: 'GET', path: '/itemWindow', reason: 'load' }, action: { type: 'status', status: 500 }, times: 1, label: '500 on load' } },
        {
          type: 'command',
          method: 'POST',
          path: '/api/v1/playbackSessions/${session}/playbackSession:1/loadCloudQueue',
          body: { queueBaseUrl: `\${cloudQueue}/queues/${t.queueId}/v2.3/`, httpAuthorization: t.httpAuthorization, playOnCompletion: true },
          expectStatus: 502,
        },
        { type: 'expect', playerId: t.playerId, state: 'PLAYING', transitions: ['load-begins', 'load-failed'] },
      ],
    }),
  },
  {
    id: 'version-drop-player',
    label: 'Dropped version poll, in the player\u2019s client',
    build: (t) => ({
      name: 'Dropped version poll, in the player\u2019s client',
      description: 'The player\u2019s own client drops its first GET /version (works against any cloud queue server): an incomplete request, retried in the background 10 s later, and playback goes on (seed §7.2, §7.4).',
      steps: [
        ...loadAndPlay(t),
        { type: 'fault', rule: { target: 'player', match: { method: 'GET', path: '/version' }, action: { type: 'drop' }, times: 1, label: 'version poll dropped' } },
        { type: 'clock', advanceMs: 620_000 },
        { type: 'expect', playerId: t.playerId, state: 'PLAYING' },
      ],
    }),
  },
];

/** What "New scenario" starts from when no queue exists yet. */
export const EMPTY_SCENARIO: ScenarioDraft = {
  name: 'New scenario',
  description: 'Steps: fault, clearFaults, action, command, clock, expect.',
  steps: [{ type: 'clock', speed: 0 }, { type: 'clearFaults' }],
};
