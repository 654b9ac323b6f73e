/**
 * For scenario tests: a fresh console in memory (its players idle, so what they ask is the run's
 * alone) with a queue of four minute-long tracks, and the steps that stop the clock, load the queue
 * on Kitchen and let `playMs` pass; and the steps of a session and a load on any group.
 */
import type { ScenarioStep } from '../api/scenario-types.js';
import type { Engine } from '../index.js';
import { freshConsole, GROUP } from '../bundles/testing-actions.js';

/** `opened`: where the console is put, for the test to close. */
export async function consoleLoadingKitchen(
  opened: Engine[],
  playMs: number,
): Promise<{ engine: Engine; load: ScenarioStep[] }> {
  const engine = await freshConsole();
  opened.push(engine);
  const { queueBaseUrl, httpAuthorization } = await engine.commands.run('queues.create', {
    name: 'Kitchen',
    items: Array.from({ length: 4 }, (_, i) => ({
      track: { name: `T${i}`, mediaUrl: `https://media.example/kitchen/${i}.mp3`, durationMillis: 60_000 },
    })),
  });
  const load: ScenarioStep[] = [
    { type: 'clock', speed: 0 },
    ...sessionAndLoad(GROUP, queueBaseUrl, httpAuthorization),
    { type: 'clock', advanceMs: playMs },
  ];
  return { engine, load };
}

/**
 * A session on `group`'s player, its id saved as `${session}`, and the queue at `queueBaseUrl`
 * loaded on it to play (with `more` in the load's body).
 */
export const sessionAndLoad = (
  group: string,
  queueBaseUrl: string,
  httpAuthorization: string,
  more: Record<string, unknown> = {},
): ScenarioStep[] => [
  {
    type: 'command',
    method: 'POST',
    path: `/api/v1/groups/${group}/playbackSession:1`,
    body: { appId: 'com.example.scenario', appContext: 'ci' },
    save: { session: 'sessionId' },
  },
  {
    type: 'command',
    method: 'POST',
    path: '/api/v1/playbackSessions/${session}/playbackSession:1/loadCloudQueue',
    body: { queueBaseUrl, httpAuthorization, playOnCompletion: true, ...more },
  },
];
