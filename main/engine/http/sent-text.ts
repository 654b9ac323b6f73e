/**
 * Answers sent as bytes, and their text. A route that keeps an answer to send again encodes it
 * once (or reads it as bytes: an item window) and sends the bytes: no UTF-8 encoding and no length
 * scan on every send. Capture, which logs the text, finds it here instead of decoding the bytes again.
 *
 * Keyed by the Buffer itself, a text lives exactly as long as its bytes. This is a memo of a pure
 * function (the bytes' text), not state of any engine: engines in one process share it safely.
 */
const texts = new WeakMap<Buffer, string>();

/** `text` in UTF-8, to be sent as is; `textSent` gives the text back without decoding. */
export function bytesToSend(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  texts.set(bytes, text);
  return bytes;
}

/**
 * Remembers the text of bytes that will be sent again and again (a window the window cache keeps,
 * read from the store as bytes): decoded once here, not by capture on every send. Capture's check
 * for a clean body then meets the same string every time, and compares it by pointer.
 */
export function keepText(bytes: Buffer): void {
  if (!texts.has(bytes)) texts.set(bytes, bytes.toString('utf8'));
}

/** The text of a body sent as bytes: remembered when `bytesToSend` or `keepText` had them, else decoded. */
export function textSent(bytes: Buffer): string {
  return texts.get(bytes) ?? bytes.toString('utf8');
}
