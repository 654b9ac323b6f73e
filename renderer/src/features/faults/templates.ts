/**
 * Starter scenarios for the seed's failure cases, written for one queue and one group's player.
 * Each stops the engine clock first so a run is exact (CI gets the same answer every time), loads
 * the queue with the console's own token, and checks the transitions the seed promises.
 * templates.test.ts runs every one against a real engine: a template that fails is a bug. Their
 * retry figures and clock steps are told from the player's retry schedule (RETRY_SCHEDULE).
 */
import { describeRetrySchedule, RETRY_SCHEDULE, type RetrySchedule } from '@engine-api/retry-schedule';
import type { ScenarioStep } from '@engine-api/scenario-types';

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
  /** What it shows, in words (the one-click buttons at the top of Faults say it). */
  description: string;
  build(target: TemplateTarget): ScenarioDraft;
}

function loadCommand({ queueId, httpAuthorization }: TemplateTarget, expectStatus?: number): ScenarioStep {
  return {
    type: 'command',
    method: 'POST',
    path: '/api/v1/playbackSessions/${session}/playbackSession:1/loadCloudQueue',
    body: { queueBaseUrl: `\${cloudQueue}/queues/${queueId}/v2.3/`, httpAuthorization, playOnCompletion: true },
    ...(expectStatus === undefined ? {} : { expectStatus }),
  };
}

/** Stop the clock, create a session (saved as `${session}`), load the queue and let it play. */
function loadAndPlay(t: TemplateTarget): ScenarioStep[] {
  return [
    { type: 'clock', speed: 0 },
    { type: 'clearFaults' },
    {
      type: 'command',
      method: 'POST',
      path: `/api/v1/groups/${t.groupId}/playbackSession:1`,
      body: { appId: 'com.example.scenario', appContext: 'scenario' },
      save: { session: 'sessionId' },
    },
    loadCommand(t),
    { type: 'clock', advanceMs: 1_000 },
    { type: 'expect', playerId: t.playerId, state: 'PLAYING', transitions: ['load-answered-plays', 'audio-ready'] },
  ];
}

/** A template: its name is its label, and its steps follow a queue loaded and playing. */
function template(
  id: string,
  label: string,
  description: string,
  then: (t: TemplateTarget) => ScenarioStep[],
): ScenarioTemplate {
  return {
    id,
    label,
    description,
    build: (t) => ({ name: label, description, steps: [...loadAndPlay(t), ...then(t)] }),
  };
}

const refresh: ScenarioStep = {
  type: 'command',
  method: 'POST',
  path: '/api/v1/playbackSessions/${session}/playbackSession:1/refreshCloudQueue',
};

/** The templates, their retry figures told from `schedule` (tests tell them from another). */
export function scenarioTemplates(schedule: RetrySchedule = RETRY_SCHEDULE): ScenarioTemplate[] {
  const retries = describeRetrySchedule(schedule);
  return [
    template(
      '503-storm',
      '503 storm during playback',
      `Every cloud queue request answers 503 with Retry-After: 3. The version poll (${retries.versionPollPlaying} in) and its ${retries.backgroundRetries} fail; the session stays valid and the window plays out (docs/contract/platform.md §7.4).`,
      (t) => [
        {
          type: 'fault',
          rule: {
            target: 'cloudQueue',
            match: {},
            action: { type: 'status', status: 503, retryAfter: 3 },
            label: '503 storm',
          },
        },
        { type: 'clock', advanceMs: retries.versionPollExhaustedMs },
        { type: 'expect', playerId: t.playerId, state: 'PLAYING', transitions: ['background-exhausted'] },
        { type: 'clearFaults' },
      ],
    ),
    template(
      '404-item-window',
      '404 on itemWindow empties the queue',
      'refreshCloudQueue asks for a window and gets 404: the player stops, empties its queue and goes idle (docs/contract/platform.md §3, §7.1).',
      (t) => [
        {
          type: 'fault',
          rule: {
            target: 'cloudQueue',
            match: { method: 'GET', path: '/itemWindow' },
            action: { type: 'status', status: 404 },
            times: 1,
            label: '404 on itemWindow',
          },
        },
        refresh,
        { type: 'expect', playerId: t.playerId, state: 'IDLE', transitions: ['refresh-command', 'window-not-found'] },
      ],
    ),
    template(
      'refresh-timeout',
      'Timeout on the background refresh',
      `GET /itemWindow?reason=refresh never answers, ${retries.backgroundTriesWords} ${retries.backgroundInterval} apart: the retries run out, playback goes on with the window it has (docs/contract/platform.md §7.4).`,
      (t) => [
        {
          type: 'fault',
          rule: {
            target: 'cloudQueue',
            match: { method: 'GET', path: '/itemWindow', reason: 'refresh' },
            action: { type: 'timeout' },
            times: retries.backgroundTries,
            label: 'refresh timeout',
          },
        },
        refresh,
        // Past the last try's timeout, with a few seconds to spare.
        { type: 'clock', advanceMs: retries.timeoutsExhaustedMs + 5_000 },
        {
          type: 'expect',
          playerId: t.playerId,
          state: 'PLAYING',
          transitions: ['refresh-command', 'background-exhausted'],
        },
      ],
    ),
    template(
      '500-on-load',
      '500 on load keeps the previous state',
      'A second loadCloudQueue whose first GET /itemWindow answers 500: the command fails with ERROR_CLOUD_QUEUE_SERVER, no retry, and the player keeps playing what it had (docs/contract/platform.md §3, §7.3).',
      (t) => [
        {
          type: 'fault',
          rule: {
            target: 'cloudQueue',
            match: { method: 'GET', path: '/itemWindow', reason: 'load' },
            action: { type: 'status', status: 500 },
            times: 1,
            label: '500 on load',
          },
        },
        loadCommand(t, 502),
        { type: 'expect', playerId: t.playerId, state: 'PLAYING', transitions: ['load-begins', 'load-failed'] },
      ],
    ),
    template(
      'version-drop-player',
      'Dropped version poll, in the player\u2019s client',
      `The player\u2019s own client drops its first GET /version (works against any cloud queue server): an incomplete request, retried in the background ${retries.backgroundInterval} later, and playback goes on (docs/contract/platform.md §7.2, §7.4).`,
      (t) => [
        {
          type: 'fault',
          rule: {
            target: 'player',
            match: { method: 'GET', path: '/version' },
            action: { type: 'drop' },
            times: 1,
            label: 'version poll dropped',
          },
        },
        // The first poll, its retry, and as long again to spare.
        { type: 'clock', advanceMs: schedule.versionPollPlayingMs + 2 * schedule.backgroundRetryIntervalMs },
        { type: 'expect', playerId: t.playerId, state: 'PLAYING' },
      ],
    ),
  ];
}

export const SCENARIO_TEMPLATES: ScenarioTemplate[] = scenarioTemplates();

/** What "New scenario" starts from when no queue exists yet. */
export const EMPTY_SCENARIO: ScenarioDraft = {
  name: 'New scenario',
  description: 'Steps: fault, clearFaults, action, command, clock, expect.',
  steps: [{ type: 'clock', speed: 0 }, { type: 'clearFaults' }],
};
