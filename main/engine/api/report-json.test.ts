import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportJson } from './report-json.js';

describe('reportJson', () => {
  it('writes a lone surrogate as U+FFFD, keys and values alike, and leaves pairs and backslashes be', () => {
    const value = { name: 'a\ud800b', ['k\udc00']: ['\ud83c\udfb5', '\\ud800', '\\\ud800'] };
    const text = reportJson(value);
    expect(text).not.toMatch(/(?<!\\)(\\\\)*\\ud[89a-f]/i);
    expect(JSON.parse(text)).toEqual({ name: 'a\ufffdb', ['k\ufffd']: ['\ud83c\udfb5', '\\ud800', '\\\ufffd'] });
  });

  it('is what JSON.stringify writes, each lone surrogate made U+FFFD', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (json, text) => {
        const value = { json, text };
        expect(JSON.parse(reportJson(value))).toEqual(wellFormed(JSON.parse(JSON.stringify(value))));
      }),
    );
  });
});

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A parsed value with each lone surrogate of its keys and strings made U+FFFD. */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE, '\ufffd');
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [wellFormed(key), wellFormed(inner)]));
  return value;
}
