/**
 * One-click rules for the failure cases the platform describes (docs/contract/platform.md §3, §7),
 * aimed at the console's own cloud queue server; each can be switched to the player's client to
 * fail any server. A rule on GET /itemWindow is scoped by `reason`: what a failure does depends on
 * the request it hits (a 404 on a load fails the command and the player plays on; on a skip it
 * empties the queue), and each description says what the player does with the request it names,
 * as request-policies.ts decides it. presets.test.ts applies each one to a playing player and
 * checks that it does so. The retry figures in the descriptions come from the schedule the player
 * retries by (RETRY_SCHEDULE), never written out here.
 */
import type { FaultPreset } from '../api/commands/faults.js';
import { countWords, describeRetrySchedule, RETRY_SCHEDULE, type RetrySchedule } from '../api/retry-schedule.js';

const WINDOW = { method: 'GET', path: '/itemWindow' } as const;

/** The presets, their descriptions told from `schedule` (tests tell them from another). */
export function faultPresets(schedule: RetrySchedule = RETRY_SCHEDULE): FaultPreset[] {
  const retries = describeRetrySchedule(schedule);
  return [
    {
      id: '503-storm',
      label: '503 storm with Retry-After',
      description: `Every cloud queue request answers 503 with Retry-After: 3 until removed. A background request (next window, version poll) is ${retries.backgroundRetried}, then the player plays out its window and pauses (§7.4); a user\u2019s skip that asks the server is ${retries.foregroundRetried(3)}, then the player goes idle (§7.2); a load fails at once (§7.3).`,
      rule: {
        target: 'cloudQueue',
        match: {},
        action: { type: 'status', status: 503, retryAfter: 3 },
        label: '503 storm',
      },
    },
    {
      id: '503-item-window-refresh',
      label: '503 on itemWindow (refresh)',
      description: `The next ${countWords(retries.backgroundTries)} GET /itemWindow?reason=refresh (the background next window) answer 503 with Retry-After: 3, and nothing else fails: the request is ${retries.backgroundRetried}, then the player plays out its window and pauses (§7.4). Trigger now sends that request.`,
      rule: {
        target: 'cloudQueue',
        match: { ...WINDOW, reason: 'refresh' },
        action: { type: 'status', status: 503, retryAfter: 3 },
        times: retries.backgroundTries,
        label: '503 on itemWindow (refresh)',
      },
    },
    {
      id: '404-item-window-skip',
      label: '404 on itemWindow (skipNext)',
      description:
        'The next GET /itemWindow?reason=skipNext answers 404: the player stops, clears its queue and goes idle, waiting for new content (§3, §7.1). A skip asks the server only with limitedSkips or notifyUserIntent.',
      rule: {
        target: 'cloudQueue',
        match: { ...WINDOW, reason: 'skipNext' },
        action: { type: 'status', status: 404 },
        times: 1,
        label: '404 on itemWindow (skipNext)',
      },
    },
    {
      id: '404-item-window-refresh',
      label: '404 on itemWindow (refresh)',
      description:
        'The next GET /itemWindow?reason=refresh (the background next window, or refreshCloudQueue) answers 404: the player stops, clears its queue and goes idle, waiting for new content (§3, §7.1).',
      rule: {
        target: 'cloudQueue',
        match: { ...WINDOW, reason: 'refresh' },
        action: { type: 'status', status: 404 },
        times: 1,
        label: '404 on itemWindow (refresh)',
      },
    },
    {
      id: '404-item-window-load',
      label: '404 on itemWindow during load',
      description:
        'The first GET /itemWindow of the next loadCloudQueue (reason=load: sent without track metadata, or with limitedSkips) answers 404: the command fails, nothing is retried, and the player keeps its state: a playing player plays on (§3, §7.3).',
      rule: {
        target: 'cloudQueue',
        match: { ...WINDOW, reason: 'load' },
        action: { type: 'status', status: 404 },
        times: 1,
        label: '404 on itemWindow (load)',
      },
    },
    {
      id: 'refresh-timeout',
      label: 'Timeout on the background refresh',
      description: `GET /itemWindow?reason=refresh never answers, for all ${retries.backgroundTriesWords} (each given up after ${retries.requestTimeout}, retried in the background, §7.4): the player plays out what is left of its window, then pauses; the session stays valid (§3).`,
      rule: {
        target: 'cloudQueue',
        match: { ...WINDOW, reason: 'refresh' },
        action: { type: 'timeout' },
        times: retries.backgroundTries,
        label: 'refresh timeout',
      },
    },
    {
      id: '500-on-load',
      label: '500 on load',
      description:
        'The first GET /itemWindow of the next loadCloudQueue (reason=load) answers 500: the command fails with ERROR_CLOUD_QUEUE_SERVER, nothing is retried, and the player keeps its state: a playing player plays on (§7.3).',
      rule: {
        target: 'cloudQueue',
        match: { ...WINDOW, reason: 'load' },
        action: { type: 'status', status: 500 },
        times: 1,
        label: '500 on load',
      },
    },
    {
      id: 'version-drop',
      label: 'Incomplete request on version poll',
      description: `The next GET /version loses its connection: an incomplete request, retried in the background ${retries.backgroundInterval} later (§7.4); playback goes on.`,
      rule: {
        target: 'cloudQueue',
        match: { method: 'GET', path: '/version' },
        action: { type: 'drop' },
        times: 1,
        label: 'version poll dropped',
      },
    },
    {
      id: 'skip-limit',
      label: '403 skip limit',
      description:
        'The next GET /itemWindow?reason=skipNext answers 403 with X-Rejected-Reason: SKIP_LIMIT_REACHED: the skip is refused and the track plays on. A skip asks the server only with limitedSkips or notifyUserIntent.',
      rule: {
        target: 'cloudQueue',
        match: { ...WINDOW, reason: 'skipNext' },
        action: { type: 'status', status: 403, rejectedReason: 'SKIP_LIMIT_REACHED' },
        times: 1,
        label: 'skip limit',
      },
    },
    {
      id: 'slow-server',
      label: 'Slow server (2 s)',
      description: `Every cloud queue request answers 2 s late, until removed: nothing fails (a request is given up only after ${retries.requestTimeout}), but a skip that waits for the server takes 2 s longer.`,
      rule: { target: 'cloudQueue', match: {}, action: { type: 'latency', ms: 2_000 }, label: 'slow server' },
    },
    {
      id: 'malformed-refresh',
      label: 'Malformed itemWindow body (refresh)',
      description:
        'The next GET /itemWindow?reason=refresh answers 200 with a body that is not JSON: another server error, never retried (§7.2), so the player plays out its window and pauses (§7.4), and notes a contract violation.',
      rule: {
        target: 'cloudQueue',
        match: { ...WINDOW, reason: 'refresh' },
        action: { type: 'malformed' },
        times: 1,
        label: 'malformed window (refresh)',
      },
    },
  ];
}

export const FAULT_PRESETS: FaultPreset[] = faultPresets();
