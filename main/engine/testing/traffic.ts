/** Traffic log entries for tests: a GET at the cloud queue server, with any field changed. */
import type { NewTrafficEntry } from '../traffic/log/index.js';

export function testTrafficEntry(fields: Partial<NewTrafficEntry> = {}): NewTrafficEntry {
  const path = fields.path ?? '/queues/q/v2.3/version';
  return {
    target: 'cloudQueue',
    at: 0,
    wallAt: 0,
    method: 'GET',
    url: `http://127.0.0.1:9003${path}`,
    path,
    reason: null,
    status: 200,
    latencyMs: 1,
    retry: null,
    fault: null,
    playerId: null,
    requestId: null,
    outcome: 'answered',
    requestHeaders: '',
    requestBody: null,
    responseHeaders: '',
    responseBody: null,
    ...fields,
  };
}
