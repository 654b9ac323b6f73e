/**
 * Server text made safe for where a report puts it (docs/contract/console.md §8: reports stay
 * well-formed, the terminal never prints a server's control characters). XML 1.0 allows only its
 * `Char` production (no C0 control but tab and line breaks, no lone surrogate, no U+FFFE/U+FFFF),
 * and HTML calls the same characters parse errors; a terminal acts on escape sequences.
 */

/** Anything outside XML 1.0's `Char`: C0 controls but \t \n \r, lone surrogates, U+FFFE and U+FFFF. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// Control characters are what these patterns are for.
/* eslint-disable no-control-regex */

/** ANSI escape sequences: CSI (`ESC [ … m`), OSC (`ESC ] … BEL` or `ESC \`), and two-character escapes. */
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])|\u009b[0-?]*[ -/]*[@-~]/g;

/**
 * C0 and C1 controls, DEL, lone surrogates, and the bidirectional overrides and isolates (U+202A–
 * U+202E, U+2066–U+2069): what a terminal may act on or cannot show, and what would reorder the
 * rest of a verdict line as it is shown ("Trojan Source"; audit).
 */
const CONTROL =
  /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/* eslint-enable no-control-regex */

/** Text an XML 1.0 document (and an HTML one) can hold: what it cannot is left out. */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML_CHAR, '');
}

/**
 * Text for one terminal line: escape sequences and control characters each shown as one
 * replacement mark (U+FFFD), line breaks and tabs a space. Marked, not dropped: two ids that
 * differ only in control characters printed alike, and a URL was printed that was never sent
 * (audit Z7); the reports' own curl keeps the bytes.
 */
export function terminalSafe(text: string): string {
  return text
    .replace(ANSI, MARK)
    .replace(/[\t\n\r]+/g, ' ')
    .replace(CONTROL, MARK)
    .replace(/\uFFFD{2,}/g, MARK);
}

const MARK = '\uFFFD';

export { firstFinding } from '../../api/conformance-text.js';
