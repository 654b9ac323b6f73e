/**
 * `--authorization` (check, check --replay, fleet) is refused with what in it no header can carry:
 * every refusal said "(no line breaks)", for an empty value and an escape character too (outsider).
 */
import { describe, expect, it } from 'vitest';
import { checkAuthorization, numberOf, parseCommandLine, UsageError } from './usage.js';

describe('--authorization', () => {
  it.each([
    ['', /: it is empty$/],
    ['  ', /: it is empty$/],
    ['Bearer a\u007fb', /: it has a control character \(U\+007F\)$/],
    ['Bearer a\nb', /: it has a line break$/],
    ['Bearer \u001b[31mX', /: it has a control character \(U\+001B\)$/],
    ['Bearer é€', /: it has a character past Latin-1 \(€\)$/],
  ])('refuses %j saying why', (value, why) => {
    expect(() => checkAuthorization(value)).toThrow(UsageError);
    expect(() => checkAuthorization(value)).toThrow(why);
  });

  it('takes what a header carries, or nothing given', () => {
    for (const value of [undefined, 'Bearer abc', 'Basic dXNlcjpwdw==', 'Bearer é\tx'])
      expect(() => checkAuthorization(value)).not.toThrow();
  });
});

describe('a number an option gives', () => {
  it('is read in decimals: empty is no 0, hex no 16', () => {
    expect(numberOf('port', '80', 0, 100, true)).toBe(80);
    expect(() => numberOf('speed', '', 0, 10)).toThrow(/--speed must be a number from 0 to 10, got an empty value/);
    expect(() => numberOf('port', '0x10', 0, 100, true)).toThrow(/--port must be a whole number/);
  });
});

describe('an option given twice', () => {
  const options = { json: { type: 'string' }, threshold: { type: 'string', multiple: true } } as const;
  it('is refused, where its last value was taken without a word (outsider)', () => {
    expect(() => parseCommandLine(['--json', 'a', '--json=b'], options, 'help')).toThrow(
      /^--json is given twice: give it once$/,
    );
  });
  it('is taken when it takes several, and after -- it is no option', () => {
    expect(parseCommandLine(['--threshold', 'a', '--threshold', 'b'], options, 'help').values.threshold).toEqual([
      'a',
      'b',
    ]);
    expect(parseCommandLine(['--json', 'a', '--', '--json'], options, 'help').positionals).toEqual(['--json']);
  });
});
