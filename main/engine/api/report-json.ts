/**
 * A report as JSON any reader takes. JSON.stringify writes a lone UTF-16 surrogate (from a
 * server's hostile text) as the escape `\ud800`: valid JSON to Node and Python, but `jq` (which
 * the docs' CI recipes pipe reports through) refuses the whole file. Such an escape is written as
 * U+FFFD instead, as the XML reports already write it; paired surrogates are written as characters
 * and never escaped, so every escape of a surrogate in the text is a lone one.
 */
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/gi;

export function reportJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(LONE_SURROGATE_ESCAPE, '$1\\ufffd')}\n`;
}
