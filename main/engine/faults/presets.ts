/**
 * One-click rules for the failure cases the platform describes (docs/contract/platform.md §3, §7), aimed at the console's own
 * cloud queue server; each can be switched to the player's client to fail any server.
 */
import type { FaultPreset } from '../api/commands/faults.js';

export const FAULT_PRESETS: FaultPreset[] = [
  {
    id: '503-storm',
    label: '503 storm with Retry-After',
    description: 'Every cloud queue request answers 503 with Retry-After: 3 until removed (§7.2: retried after the header, clamped to 2–10 s).',
    rule: { target: 'cloudQueue', match: {}, action: { type: 'status', status: 503, retryAfter: 3 }, label: '503 storm' },
  },
  {
    id: '404-item-window',
    label: '404 on itemWindow',
    description: 'The next GET /itemWindow answers 404: the player empties its queue and goes idle (§3, §7.1).',
    rule: { target: 'cloudQueue', match: { method: 'GET', path: '/itemWindow' }, action: { type: 'status', status: 404 }, times: 1, label: '404 on itemWindow' },
  },
  {
    id: 'refresh-timeout',
    label: 'Timeout on the background refresh',
    description: 'GET /itemWindow?reason=refresh never answers, for all four tries (§7.4: the window plays out, then the player pauses).',
    rule: { target: 'cloudQueue', match: { method: 'GET', path: '/itemWindow', reason: 'refresh' }, action: { type: 'timeout' }, times: 4, label: 'refresh timeout' },
  },
  {
    id: '500-on-load',
    label: '500 on load',
    description: 'The first GET /itemWindow of the next loadCloudQueue answers 500: the command fails, the player keeps its state (§7.3).',
    rule: { target: 'cloudQueue', match: { method: 'GET', path: '/itemWindow', reason: 'load' }, action: { type: 'status', status: 500 }, times: 1, label: '500 on load' },
  },
  {
    id: 'version-drop',
    label: 'Incomplete request on version poll',
    description: 'The next GET /version loses its connection: an incomplete request, retried in the background (§7.2, §7.4).',
    rule: { target: 'cloudQueue', match: { method: 'GET', path: '/version' }, action: { type: 'drop' }, times: 1, label: 'version poll dropped' },
  },
  {
    id: 'skip-limit',
    label: '403 skip limit',
    description: 'The next skipNext answers 403 with X-Rejected-Reason: SKIP_LIMIT_REACHED (with limitedSkips or notifyUserIntent).',
    rule: {
      target: 'cloudQueue',
      match: { method: 'GET', path: '/itemWindow', reason: 'skipNext' },
      action: { type: 'status', status: 403, rejectedReason: 'SKIP_LIMIT_REACHED' },
      times: 1,
      label: 'skip limit',
    },
  },
  {
    id: 'slow-server',
    label: 'Slow server (2 s)',
    description: 'Every cloud queue request answers 2 s late, until removed.',
    rule: { target: 'cloudQueue', match: {}, action: { type: 'latency', ms: 2_000 }, label: 'slow server' },
  },
  {
    id: 'malformed-window',
    label: 'Malformed itemWindow body',
    description: 'The next GET /itemWindow answers 200 with a body that is not JSON (§7.2: another server error, not retried).',
    rule: { target: 'cloudQueue', match: { method: 'GET', path: '/itemWindow' }, action: { type: 'malformed' }, times: 1, label: 'malformed window' },
  },
];
