/**
 * The console's own player plays the whole queue through (docs/contract/console.md §8): from its
 * first item to its end on an engine clock of the case's own, skipping, pausing and seeking as a
 * listener would, with the real rhythm of windows, version polls and reports (`play.ts`). Any
 * violation the player records fails it, named by its rule and the exchange it came in; so does
 * an error it gives up with, a pause it takes by itself, or a track that never moves on.
 * Integrators shipped servers that died six tracks into an album of short tracks, and servers
 * that served only the playing item and the next: every case before passed them.
 *
 * It builds on every case whose rule the player leans on, so a defect one of them fails skips
 * this one (one defect, one failure). The clock is the case's own, never the console's: the
 * user's players and the engine clock are not touched.
 */
import { EngineClock } from '../../clock/clock.js';
import { Player } from '../../player/player.js';
import { fail, pass, skip, warn, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { play, type Noted, type Play } from '../play.js';
import { RULE } from '../rules.js';
import type { Answer } from '../server.js';

/** The X-Player-Id of the case's player, as the suite's other requests. */
const PLAYER_ID = 'conformance-check';

export const playThrough: ConformanceCase = {
  id: 'play-through',
  rule: RULE.suite,
  title: "The console's player plays the whole queue through, skipping, pausing and seeking, with no violation",
  needs: [
    'context',
    'item-window.first',
    'item-window.size-limits',
    'item-window.centred',
    'item-window.queue-ends',
    'item-window.ids',
    'item-window.items',
    'item-window.queue-version',
    'version',
    'item-window.reasons',
    'time-played.update',
    'time-played.final',
  ],
  async run({ server, facts, now }: CaseContext): Promise<Verdict> {
    const runNow = server.runNow;
    if (!runNow) return skip('this run has no player to lend the case');
    const walk = facts.walk;
    const queueFirst = walk?.reachedBeginning ? walk.ids[0] : undefined;
    const queueLast = walk?.reachedBeginning && walk.reachedEnd ? walk.ids.at(-1) : undefined;
    // Stopped (speed 0): only the case moves it, as fast as the server answers.
    const clock = new EngineClock({ startAt: runNow(), speed: 0 });
    const answers: Answer[] = [];
    const byRequest = new Map<string, Answer>();
    const noted: Noted[] = [];
    const client = server.playerClient(clock, (answer) => {
      answers.push(answer);
      byRequest.set(answer.exchange.requestId, answer);
    });
    if (!client) return skip('this run has no player to lend the case');
    const player = new Player({
      playerId: PLAYER_ID,
      groupId: 'conformance-play-through',
      clock,
      client,
      onViolations: (violations, exchange) => {
        for (const violation of violations) noted.push({ violation, answer: byRequest.get(exchange.requestId) });
      },
    });
    try {
      const result = await play({
        player,
        clock,
        load: { queueBaseUrl: server.baseUrl, ...(server.authorization ? { httpAuthorization: server.authorization } : {}), ...(queueFirst ? { itemId: queueFirst } : {}), playOnCompletion: true },
        ...(queueFirst === undefined ? {} : { queueFirst }),
        ...(queueLast === undefined ? {} : { queueLast }),
        answers,
        noted,
        now,
        ...(server.signal ? { signal: server.signal } : {}),
      });
      return verdictOf(result, answers);
    } finally {
      player.close();
      clock.close();
    }
  },
};

function verdictOf(result: Play, answers: Answer[]): Verdict {
  const { end } = result;
  if (end.kind === 'failed') return fail(end.message, end.evidence.length ? end.evidence : answers.slice(-1));
  if (end.kind === 'stopped') return skip('the run stopped while the player played');
  const tracks = result.tracks;
  const span = tracks.length === 1 ? `1 track (${tracks[0]})` : `${tracks.length} tracks, ${tracks[0]} … ${tracks.at(-1)}`;
  const played = `${span}, in ${duration(result.engineMs)} of engine time; ${actsOf(result)}; ${rhythmOf(answers)}`;
  const said =
    end.kind === 'end'
      ? `played the whole queue: ${played}; the player recorded no violation`
      : `played ${played}, then stopped, as play-through does after ${end.why}; the queue goes on; the player recorded no violation`;
  if (result.warnings.length) {
    const rules = [...new Set(result.warnings.map((note) => note.violation.rule))];
    const first = result.warnings[0]!;
    return warn(`the player recorded ${rules.join(', ')} (${first.violation.message}); ${said.replace(/; the player recorded no violation$/, '')}`, result.warnings.flatMap((note) => (note.answer ? [note.answer] : [])));
  }
  return pass(said, answers);
}

function actsOf({ acts }: Play): string {
  const parts = [`${acts.pause} pause${acts.pause === 1 ? '' : 's'}`, `${acts.seek} seek${acts.seek === 1 ? '' : 's'}`, `${acts.skipNext + acts.skipPrev} skip${acts.skipNext + acts.skipPrev === 1 ? '' : 's'}`];
  return parts.join(', ');
}

function rhythmOf(answers: readonly Answer[]): string {
  const count = (endpoint: string) => answers.filter((answer) => answer.exchange.endpoint === endpoint).length;
  return `${count('itemWindow')} windows, ${count('version')} version polls, ${count('timePlayed')} reports`;
}

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
