/**
 * Whether a file read as UTF-8 text is a binary file picked by mistake (a zip, an image, a
 * database): its start holds control characters that no JSON text holds outside a string's
 * escapes (tab, LF and CR are blanks), or U+FFFD, what decoding leaves of bytes that are not
 * UTF-8. The CLI and the console's file pickers then say so, instead of quoting those bytes back
 * in an error line that a terminal or a page cannot show (audit-ui W14).
 */

/** How much of a file's start is looked at. */
const LOOKED_AT = 4_096;
const NOT_TEXT = /(?![\t\n\r])[\p{Cc}\ufffd]/u;

export function looksBinary(text: string): boolean {
  return NOT_TEXT.test(text.length > LOOKED_AT ? text.slice(0, LOOKED_AT) : text);
}
