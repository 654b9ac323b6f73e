/**
 * Where the server said the queue ends, as a play heard it (play-answers.ts): the end the player
 * stopped at is judged against the window that said it, not the newest window, which an item
 * appended once the last had played moved on (audit).
 */
import { expect, it } from 'vitest';
import { PlayAnswers } from './play-answers.js';
import type { Answer } from './server.js';

let requests = 0;
const window = (version: string, ids: string[], end: boolean) =>
  ({
    status: 200,
    json: { queueVersion: version, includesEndOfQueue: end, items: ids.map((id) => ({ id })) },
    exchange: { requestId: `r${++requests}`, endpoint: 'itemWindow' },
  }) as unknown as Answer;

it('keeps the last window that said the queue ends at each item, and only windows that said so', () => {
  const answers = new PlayAnswers();
  const atOld = window('v1', ['item-78', 'item-79'], true);
  answers.add(atOld);
  answers.add(window('v1', ['item-77', 'item-78'], false));
  const atNew = window('v2', ['item-79', 'item-80'], true);
  answers.add(atNew);
  expect(answers.endSaidAt('item-79')).toBe(atOld);
  expect(answers.endSaidAt('item-80')).toBe(atNew);
  expect(answers.endSaidAt('item-78')).toBeUndefined();
  expect(answers.lastWindow).toBe(atNew);
});

it('keeps a few ends, the newest', () => {
  const answers = new PlayAnswers();
  for (let i = 0; i < 40; i++) answers.add(window(`v${i}`, [`item-${i}`], true));
  expect(answers.endSaidAt('item-0')).toBeUndefined();
  expect(answers.endSaidAt('item-39')).toBeDefined();
});
