/**
 * The queue's end where the walk did not reach it (a queue past the walk's 20,000 items): once the
 * play-through's player stops at the end of the queue, the item it stopped at is where the server
 * said the queue ends. Two windows judge that end as the walk's edge probes judge an end it saw
 * (walk.ts): one around the item must hold nothing after it and say includesEndOfQueue true; one
 * that stops one item short of it must say false (docs/contract/console.md §4). A flag one item
 * early on a long queue fools the player into stopping short, and only these windows show it.
 */
import { isObject } from '../api/is-object.js';
import { idOf, type WindowView } from './facts.js';
import { goneSaid, type Gone } from './gone-items.js';
import { requestLine, type Answer, type CheckedServer } from './server.js';
import { askWindow } from './walk.js';

/** Items asked before the end: enough to ask a window that stops short of it, few enough for any server. */
const BEFORE_END = 3;

export interface EndProbe {
  /** What the two windows showed wrong: the play-through fails on them. */
  problems: string[];
  /** Why the end was not judged, when it was not (the queue changed since the player stopped). */
  notJudged: string | null;
  answers: Answer[];
}

/**
 * Judges the end the player stopped at: `last` is its item, `queueVersion` the version its windows
 * carry now, `endedBy` the window that said the queue ends there (an edit since may have added
 * items, so an end said, or asked again, in another version is not judged).
 */
export async function probeEnd(
  server: CheckedServer,
  last: string,
  queueVersion: unknown,
  endedBy: Answer | undefined,
  /** Whether a 404 for an item of the probe is right, its item gone with an edit (`gone-items.ts`). */
  gone?: (answer: Answer, itemId: string, seenIn: unknown) => Promise<Gone | null>,
): Promise<EndProbe> {
  const probe: EndProbe = { problems: [], notJudged: null, answers: [] };
  // The end was said by a window of another version than the player holds now: an edit since (an
  // item appended once the last had played) may have moved it (audit).
  const said = isObject(endedBy?.json) ? endedBy.json.queueVersion : undefined;
  if (endedBy && said !== undefined && said !== queueVersion) {
    probe.notJudged = `the queue changed (queueVersion ${JSON.stringify(said)} → ${JSON.stringify(queueVersion)}) after ${requestLine(endedBy)} said where it ends`;
    return probe;
  }
  const ask = (itemId: string, previous: number, upcoming: number) =>
    fetch(server, probe, { itemId, previous, upcoming }, gone && ((answer) => gone(answer, itemId, queueVersion)));
  const around = await ask(last, BEFORE_END, BEFORE_END);
  if (!around) return probe;
  if (around.queueVersion !== queueVersion) {
    probe.notJudged = `the queue changed (queueVersion ${JSON.stringify(queueVersion)} → ${JSON.stringify(around.queueVersion)}) before its end could be asked again`;
    return probe;
  }
  const asked = requestLine(around.answer);
  const held = around.items.map(idOf);
  const at = held.indexOf(last);
  if (at === -1) {
    probe.problems.push(`${asked}: the window does not hold ${last}, the itemId asked for`);
    return probe;
  }
  if (at < held.length - 1) {
    const said = endedBy ? `, as ${requestLine(endedBy)} said` : '';
    probe.problems.push(
      `the player stopped at the end of the queue at ${last}${said}, but ${held[at + 1] ?? 'an item'} follows it in ${asked}: includesEndOfQueue must be true only on a window that holds the queue's last item`,
    );
    return probe;
  }
  if (around.includesEndOfQueue !== true) {
    probe.problems.push(
      `${asked}: nothing after ${last}, where the player stopped at the end of the queue, yet includesEndOfQueue ${JSON.stringify(around.includesEndOfQueue) ?? 'missing'}: the window that holds the queue's last item must say true`,
    );
  }
  if (at === 0) return probe;
  const from = held[0];
  if (from === null || from === undefined) return probe;
  const short = await ask(from, 0, at - 1);
  if (!short || short.queueVersion !== queueVersion || short.includesEndOfQueue !== true) return probe;
  const shortIds = short.items.map(idOf);
  if (shortIds.includes(last)) return probe;
  probe.problems.push(
    `${requestLine(short.answer)}: includesEndOfQueue true, but the window stops at ${shortIds.at(-1) ?? 'an item'}, before the queue's last item ${last}, where the player stopped`,
  );
  return probe;
}

async function fetch(
  server: CheckedServer,
  probe: EndProbe,
  { itemId, previous, upcoming }: { itemId: string; previous: number; upcoming: number },
  gone: ((answer: Answer) => Promise<Gone | null>) | undefined,
): Promise<WindowView | null> {
  const asked = await askWindow(server, { itemId, previous, upcoming }, probe.answers);
  if (asked.view) return asked.view;
  // The end the player stopped at went with an edit since (a queue that drops played items): not judged.
  const edited = await gone?.(asked.answer);
  if (edited) {
    probe.answers.push(edited.polled, edited.polledAgain);
    probe.notJudged = goneSaid(edited, 'so where it ends is not judged');
    return null;
  }
  probe.problems.push(
    `${requestLine(asked.answer)}: expected a window around the end the player stopped at (${itemId}), got ${asked.got}`,
  );
  return null;
}
