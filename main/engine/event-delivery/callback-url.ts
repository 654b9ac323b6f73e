/**
 * What a key's event callback URL may be (docs/contract/console.md §7 event callbacks): an http or
 * https URL, loopback included. The public service asks for HTTPS; the console takes plain http
 * too, so that a receiver on the developer's own machine needs no certificate. A private or
 * link-local address is taken but warned of: the platform could never reach it.
 */
import { EngineError } from '../api/errors.js';
import { isLoopback, notPubliclyRoutable } from '../http/public-hosts.js';

export const MAX_CALLBACK_URL_LENGTH = 2048;

/** The URL as it will be called, or the EngineError that says why it cannot be one. */
export function checkEventCallbackUrl(input: string): string {
  const value = input.trim();
  const refuse = (why: string) =>
    new EngineError('invalid_input', `event callback URL ${JSON.stringify(input)} refused: ${why}`, {
      eventCallbackUrl: input,
      reason: why,
    });
  if (value === '') throw refuse('it is empty (send null to remove the URL)');
  // URL parsing drops tabs and line breaks silently: what was sent would not be what is called.
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))
    throw refuse('it holds a control character (a line break, a tab): a URL cannot');
  if (value.length > MAX_CALLBACK_URL_LENGTH) throw refuse(`it is longer than ${MAX_CALLBACK_URL_LENGTH} characters`);
  if (!URL.canParse(value)) throw refuse('it is not an absolute URL');
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse(`it must be http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.hostname === '') throw refuse('it has no host');
  // The signature is what proves an event; a password in the URL would only end up in logs.
  if (url.username !== '' || url.password !== '') throw refuse('it must not carry a user name or password');
  if (url.hash !== '') throw refuse('it must not have a fragment (#…)');
  return value;
}

/**
 * Said beside a URL that is taken but that the platform's servers could never call: a private,
 * link-local or otherwise internal address. Loopback is what integrators test with: no warning.
 */
export function eventCallbackWarning(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  if (isLoopback(host)) return null;
  const why = notPubliclyRoutable(host);
  return why ? `the platform could never reach ${host}: it is ${why}; only this console can deliver to it` : null;
}
