/**
 * Whether a file read as UTF-8 text is no UTF-8 text at all: a binary file picked by mistake (a
 * zip, an image, a database) or UTF-16 text (as PowerShell 5 writes it). The CLI and the console's
 * file pickers then say so, instead of quoting those bytes back in an error line that a terminal
 * or a page cannot show (audit-ui W14). Asked only of a file that is not JSON, or that nests
 * deeper than any file of ours (a binary file's bytes read as brackets): a JSON text may hold
 * U+FFFD (a bundle writes a lone surrogate as one).
 */

export type NotText = 'binary' | 'utf-16';

/** How much of a file's start is looked at. */
const LOOKED_AT = 4_096;
/** Control characters no JSON text holds outside a string's escapes (tab, LF and CR are blanks). */
const CONTROLS = /(?![\t\n\r])\p{Cc}/gu;
/**
 * A text with a control character or two (a terminal's colour pasted in with a value) is a text:
 * the parser's line and column say where. It was called a binary file (outsider).
 */
const FEW_CONTROLS = 3;

export function notText(text: string): NotText | null {
  const head = text.length > LOOKED_AT ? text.slice(0, LOOKED_AT) : text;
  // A UTF-16 byte order mark (FF FE or FE FF) decodes as two U+FFFD, and its ASCII as every other char NUL.
  if (head.startsWith('\ufffd\ufffd') && head.includes('\u0000')) return 'utf-16';
  if (head.includes('\u0000') || (head.match(CONTROLS)?.length ?? 0) > FEW_CONTROLS) return 'binary';
  // U+FFFD is what decoding leaves of bytes that are not UTF-8: a binary file starts with one, or
  // is full of them; a text may hold a few.
  if (head.startsWith('\ufffd') || replacements(head) * 20 > head.length) return 'binary';
  return null;
}

/** What a message says of a file `notText` found (after "is not JSON: "). */
export const NOT_TEXT_SAID: Record<NotText, string> = {
  binary: 'it looks like a binary file (a zip, an image?), not a file the console wrote',
  'utf-16': 'it is UTF-16 text; save it as UTF-8',
};

function replacements(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\ufffd'); at !== -1; at = text.indexOf('\ufffd', at + 1)) n++;
  return n;
}
