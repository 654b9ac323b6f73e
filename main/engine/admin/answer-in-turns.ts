/**
 * A large answer is written in turns, the event loop free between them (docs/contract/console.md
 * §9: no admin call holds the other listeners more than 250 ms), as large bodies are read
 * (json-in-turns.ts). A generation of a million items answers with their ids: one JSON.stringify
 * of them took 270–280 ms here, and the answer's end held every listener 350–450 ms.
 *
 * Only the answer's own members are looked at: an array among them longer than SLICE is written
 * SLICE elements at a time, each slice by JSON.stringify, so the text is what JSON.stringify of the
 * whole would be. Every other answer is sent as before, in one piece.
 */
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Array elements written per turn: 10,000 item ids take 2–4 ms. */
export const SLICE = 10_000;

/** The answer as a stream of its JSON text when it holds a long array; null to send it whole. */
export function answerInTurns(value: unknown, slice = SLICE): Readable | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return null;
  const members = Object.entries(value);
  if (!members.some(([, member]) => Array.isArray(member) && member.length > slice)) return null;
  return Readable.from(asBytes(textOf(members, slice)), { objectMode: false });
}

/** Each piece as bytes, for the reason `send` gives in routes.ts. */
async function* asBytes(texts: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const text of texts) yield Buffer.from(text, 'utf8');
}

async function* textOf(members: [string, unknown][], slice: number): AsyncGenerator<string> {
  let first = true;
  yield '{';
  for (const [name, member] of members) {
    // What JSON.stringify leaves out of an object.
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(name)}:`;
    first = false;
    if (!Array.isArray(member) || member.length <= slice) {
      yield JSON.stringify(member);
      continue;
    }
    yield '[';
    for (let at = 0; at < member.length; at += slice) {
      const text = JSON.stringify(member.slice(at, at + slice));
      yield `${at === 0 ? '' : ','}${text.slice(1, -1)}`;
      await nextTurn();
    }
    yield ']';
  }
  yield '}';
}
