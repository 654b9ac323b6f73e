/**
 * Why a chosen file could not be read as JSON, in words that can be shown: V8's message quotes the
 * file's first characters, and for a binary file those are control characters that the error line
 * then echoed (audit-ui W14). A binary file is called one; any other message has its control
 * characters written as escapes.
 */
import { looksBinary } from '@engine-api/binary-text';

const CONTROL = /\p{Cc}/gu;

export function notJsonMessage(fileName: string, text: string, error: unknown): string {
  if (looksBinary(text))
    return `${fileName} is not JSON: it looks like a binary file. Choose the .json file the console exported.`;
  const message = error instanceof Error ? error.message : String(error);
  return `${fileName} is not JSON: ${printable(message)}`;
}

/** A text with its control characters written as `\uXXXX`, so that none reaches the page raw. */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
