/**
 * Answers kept as bytes that began as text. A route that keeps an answer to send again (a cached
 * item window) encodes it once and sends the bytes: no UTF-8 encoding and no length scan on every
 * send. Capture, which logs the text, finds it here instead of decoding the bytes again.
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

/** The text of a body sent as bytes: remembered when `bytesToSend` made them, else decoded. */
export function textSent(bytes: Buffer): string {
  return texts.get(bytes) ?? bytes.toString('utf8');
}
