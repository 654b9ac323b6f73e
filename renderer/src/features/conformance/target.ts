/**
 * The form's two fields checked before anything is sent, with the engine's own limits (main's
 * conformance command schema): an absolute http(s) base URL without credentials in it, and an
 * Authorization that can travel as one header line. Each refusal says what to write instead.
 */
const MAX_URL_LENGTH = 2_048;
const MAX_AUTHORIZATION_LENGTH = 8_192;
/** What an HTTP header value may hold (tab, printable ASCII, Latin-1): the engine's HeaderValue. */
const HEADER_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export function checkBaseUrl(text: string): Checked<string> {
  const value = text.trim();
  if (!value)
    return {
      ok: false,
      message:
        'Enter the server’s base URL: the queueBaseUrl a loadCloudQueue would carry, e.g. https://queue.example.com/v2.3/',
    };
  if (value.length > MAX_URL_LENGTH)
    return {
      ok: false,
      message: `The base URL is ${value.length.toLocaleString('en-US')} characters long; at most ${MAX_URL_LENGTH.toLocaleString('en-US')} are allowed.`,
    };
  // The scheme as written, not as URL reads it: it takes `localhost:8080` for a scheme and `http:/x` for http://x.
  if (!/^https?:\/\//i.test(value)) {
    const scheme = /^([a-z][\w+.-]*):\/\//i.exec(value)?.[1];
    return {
      ok: false,
      message: scheme
        ? `The base URL must start with https:// or http://, not ${scheme}://.`
        : `“${value}” is not a whole URL: write it starting with https:// or http://.`,
    };
  }
  if (!URL.canParse(value)) return { ok: false, message: `“${value}” is not a URL.` };
  const url = new URL(value);
  if (url.username || url.password)
    return {
      ok: false,
      message: 'The base URL must not carry a user name or password: put credentials in Authorization.',
    };
  return { ok: true, value };
}

/** Empty is no Authorization at all (the run then skips the wrong-token case). */
export function checkAuthorization(text: string): Checked<string | undefined> {
  const value = text.trim();
  if (!value) return { ok: true, value: undefined };
  if (value.length > MAX_AUTHORIZATION_LENGTH)
    return {
      ok: false,
      message: `The Authorization is ${value.length.toLocaleString('en-US')} characters long; at most ${MAX_AUTHORIZATION_LENGTH.toLocaleString('en-US')} are allowed.`,
    };
  if (!HEADER_VALUE.test(value))
    return {
      ok: false,
      message:
        'The Authorization must be one line of plain characters (no line breaks, nothing beyond Latin-1), as an HTTP header carries it.',
    };
  return { ok: true, value };
}
