/**
 * Why a chosen file could not be read as JSON, in words that can be shown: V8's message quotes the
 * file's first characters, and for a binary file those are control characters that the error line
 * then echoed (audit-ui W14). A binary file is called one, and UTF-16 text too; any other message
 * has its control characters written as escapes.
 */
import { NOT_TEXT_SAID, notText } from '@engine-api/binary-text';

const CONTROL = /\p{Cc}/gu;

export function notJsonMessage(fileName: string, text: string, error: unknown): string {
  const kind = notText(text);
  if (kind) return `${fileName} is not JSON: ${NOT_TEXT_SAID[kind]}.`;
  const message = error instanceof Error ? error.message : String(error);
  return `${fileName} is not JSON: ${printable(message)}`;
}

/** A text with its control characters written as `\uXXXX`, so that none reaches the page raw. */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
