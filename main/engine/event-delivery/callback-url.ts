/**
 * What a key's event callback URL may be (docs/contract/console.md §7 event callbacks): an http or
 * https URL, loopback included. The public service asks for HTTPS; the console takes plain http
 * too, so that a receiver on the developer's own machine needs no certificate.
 */
import { EngineError } from '../api/errors.js';

export const MAX_CALLBACK_URL_LENGTH = 2048;

/** The URL as it will be called, or the EngineError that says why it cannot be one. */
export function checkEventCallbackUrl(input: string): string {
  const value = input.trim();
  const refuse = (why: string) => new EngineError('invalid_input', `event callback URL ${JSON.stringify(input)} refused: ${why}`, { eventCallbackUrl: input, reason: why });
  if (value === '') throw refuse('it is empty (send null to remove the URL)');
  if (value.length > MAX_CALLBACK_URL_LENGTH) throw refuse(`it is longer than ${MAX_CALLBACK_URL_LENGTH} characters`);
  if (!URL.canParse(value)) throw refuse('it is not an absolute URL');
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`it must be http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.hostname === '') throw refuse('it has no host');
  // The signature is what proves an event; a password in the URL would only end up in logs.
  if (url.username !== '' || url.password !== '') throw refuse('it must not carry a user name or password');
  if (url.hash !== '') throw refuse('it must not have a fragment (#…)');
  return value;
}
