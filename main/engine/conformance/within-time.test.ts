/** A late request's verdict waits only for the run's time left (within-time.ts). */
import { expect, it } from 'vitest';
import { withinTime } from './within-time.js';

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

it('gives the work its answer when it comes in time, and the late value when it does not', async () => {
  expect(await withinTime(after(5, 'done'), 1_000, 'late')).toBe('done');
  expect(await withinTime(after(1_000, 'done'), 10, 'late')).toBe('late');
  expect(await withinTime(after(50, 'done'), -5, 'late')).toBe('late');
});

it('waits for the work when there is no deadline, however far (no timer of Infinity firing at once)', async () => {
  expect(await withinTime(after(30, 'done'), Infinity, 'late')).toBe('done');
  expect(await withinTime(after(30, 'done'), 2 ** 40, 'late')).toBe('done');
});
