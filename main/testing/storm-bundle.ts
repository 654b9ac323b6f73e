/**
 * A repro bundle exported from a console after a 503 storm, made over the admin API exactly as a
 * QA engineer would: a session on the Kitchen player plays the CI example queue, every cloud queue
 * request then answers 503, the version poll and its background retries fail, and the whole
 * traffic is exported. Works against any console (an engine in a test, a packed `serve`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReproBundle } from '../engine/api/bundle-types.js';
import type { QueueSummary } from '../engine/api/queue-types.js';
import { describeRetrySchedule } from '../engine/api/retry-schedule.js';
import { PROJECT_ROOT } from './serve-process.js';

export async function exportStormBundle(consoleUrl: string, adminToken: string): Promise<ReproBundle> {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${consoleUrl}/admin/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  const control = (path: string, body: unknown) =>
    call<{ status: number; body: Record<string, string> }>('POST', '/control/send', { method: 'POST', path, body });

  await call('POST', '/clock', { speed: 0 });
  const queue = await call<QueueSummary>(
    'POST',
    '/queues',
    JSON.parse(readFileSync(join(PROJECT_ROOT, 'examples/ci-queue.json'), 'utf8')),
  );
  await call('DELETE', '/traffic');
  const session = await control('/api/v1/groups/group-kitchen/playbackSession:1', {
    appId: 'com.example.qa',
    appContext: 'storm',
  });
  const load = await control(`/api/v1/playbackSessions/${session.body.sessionId}/playbackSession:1/loadCloudQueue`, {
    queueBaseUrl: queue.queueBaseUrl,
    httpAuthorization: queue.httpAuthorization,
    playOnCompletion: true,
  });
  if (load.status !== 200) throw new Error(`loadCloudQueue answered ${load.status}: ${JSON.stringify(load.body)}`);
  await call('POST', '/clock', { advanceMs: 1_000 });
  await call('POST', '/faults', {
    target: 'cloudQueue',
    match: {},
    action: { type: 'status', status: 503, retryAfter: 3 },
    label: '503 storm',
  });
  // Until the version poll (due a poll interval into playback) has used up its background retries.
  await call('POST', '/clock', { advanceMs: describeRetrySchedule().versionPollExhaustedMs });
  return call<ReproBundle>('POST', '/bundles/export', { name: '503 storm during playback' });
}
