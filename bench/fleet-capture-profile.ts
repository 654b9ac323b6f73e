/**
 * A fleet's main thread under a CPU profile (not a bench: `npx tsx bench/fleet-capture-profile.ts
 * [--off] [--out FILE]`): the fleet of `fleet-capture.bench.ts` (300 players at speed 100 against
 * the reference server) with capture on (off with `--off`), profiled for 12 s of wall time once
 * every player has joined, written as a `.cpuprofile` (Chrome's DevTools and VS Code read it).
 * Only the main thread is profiled: the server and the traffic log, not the players' workers.
 * docs/decisions/perf-capture-off-the-request-path.md (eighth look) read two such profiles.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createEngine } from '../main/engine/index.js';

const { values } = parseArgs({
  options: { off: { type: 'boolean', default: false }, out: { type: 'string', default: 'fleet.cpuprofile' } },
});
const PLAYERS = 300;
const SPEED = 100;
const PROFILED_MS = 12_000;

const engine = await createEngine({ dataDir: null, port: 0, clockSpeed: 0 });
try {
  await engine.commands.run('traffic.configure', { capture: !values.off });
  // Long enough to outlast the joins and the profile; stopped below.
  const { id } = await engine.commands.run('fleets.start', {
    players: PLAYERS,
    durationMs: 60_000 * SPEED,
    speed: SPEED,
  });
  const requests = async () => (await engine.commands.run('fleets.get', { id })).totals.requests;
  for (let waited = 0; (await engine.commands.run('fleets.get', { id })).players.joined < PLAYERS; waited += 500) {
    if (waited > 60_000) throw new Error(`the fleet's ${PLAYERS} players did not all join within 60 s`);
    await sleep(500);
  }
  await sleep(3_000); // past the joins' one-off work
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const before = await requests();
  await sleep(PROFILED_MS);
  const { profile } = await session.post('Profiler.stop');
  const sent = (await requests()) - before;
  session.disconnect();
  writeFileSync(values.out, JSON.stringify(profile));
  console.log(
    `capture ${values.off ? 'off' : 'on'}: ${sent} requests in ${PROFILED_MS / 1000} s; profile in ${values.out}`,
  );
  await engine.commands.run('fleets.stop', { id });
} finally {
  await engine.close();
}
