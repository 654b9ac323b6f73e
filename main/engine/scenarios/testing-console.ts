/**
 * For scenario tests: a fresh console in memory (its players idle, so what they ask is the run's
 * alone) with a queue of four minute-long tracks, and the steps that stop the clock, load the queue
 * on Kitchen and let `playMs` pass.
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
    {
      type: 'command',
      method: 'POST',
      path: `/api/v1/groups/${GROUP}/playbackSession:1`,
      body: { appId: 'com.example.scenario', appContext: 'x' },
      save: { session: 'sessionId' },
    },
    {
      type: 'command',
      method: 'POST',
      path: '/api/v1/playbackSessions/${session}/playbackSession:1/loadCloudQueue',
      body: { queueBaseUrl, httpAuthorization, playOnCompletion: true },
    },
    { type: 'clock', advanceMs: playMs },
  ];
  return { engine, load };
}
