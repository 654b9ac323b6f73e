import { describe, expect, it } from 'vitest';
import type { CaseContext } from '../case.js';
import { newFacts } from '../facts.js';
import { answerTimes } from './timing.js';

describe('timing', () => {
  it('(audit) is skipped when no answer came whole: "0 answers, the slowest in 0 ms" passed it', async () => {
    const verdict = await answerTimes.run({ facts: newFacts() } as unknown as CaseContext);
    expect(verdict).toMatchObject({ outcome: 'skip', message: 'no answer came whole: there is nothing to time' });
  });
});
