/**
 * What may be registered as a redirect URL (docs/contract/platform.md §2.1, §8; docs/contract/console.md §2): HTTPS and publicly
 * routable. Loopback URLs (http or https, 127.0.0.1 / localhost / [::1]) are accepted for local
 * testing but flagged "production would reject this"; with production parity on they are refused.
 * Everything else that cannot be reached from the public internet is refused with the reason why.
 */
import { LOOPBACK_WARNING } from '../../api/oauth-types.js';
import { isLoopback, notPubliclyRoutable } from '../../http/public-hosts.js';

export type RedirectUriVerdict =
  { ok: true; loopback: boolean; warning: string | null } | { ok: false; reason: string };

export const MAX_REDIRECT_URI_LENGTH = 2048;

export function checkRedirectUri(uri: string, options: { productionParity: boolean }): RedirectUriVerdict {
  const refuse = (reason: string): RedirectUriVerdict => ({ ok: false, reason });
  if (uri === '') return refuse('the redirect URL is empty');
  if (uri !== uri.trim()) return refuse('the redirect URL has spaces at its start or end');
  if (uri.length > MAX_REDIRECT_URI_LENGTH)
    return refuse(`the redirect URL is longer than ${MAX_REDIRECT_URI_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return refuse('not an absolute URL (it needs a scheme and a host, like https://app.example.com/callback)');
  }
  if (uri.includes('#')) return refuse('a redirect URL must not have a fragment (#…), RFC 6749 §3.1.2');
  if (url.username || url.password) return refuse('a redirect URL must not carry a user name or password');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(
      `the scheme is ${url.protocol.replace(/:$/, '')}: a redirect URL must be HTTPS (docs/contract/platform.md §2.1)`,
    );
  }

  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isLoopback(host)) {
    if (options.productionParity) {
      return refuse(
        'production parity is on: production rejects loopback redirect URLs (they are not publicly routable)',
      );
    }
    return { ok: true, loopback: true, warning: LOOPBACK_WARNING };
  }
  if (url.protocol === 'http:') {
    return refuse(
      'plain http is accepted only for loopback addresses (127.0.0.1, localhost, [::1]) for local testing; a redirect URL must be HTTPS (docs/contract/platform.md §2.1)',
    );
  }
  const why = notPubliclyRoutable(host);
  if (why)
    return refuse(
      `the host ${url.hostname} is ${why}: a redirect URL must be publicly routable (docs/contract/platform.md §2.1)`,
    );
  return { ok: true, loopback: false, warning: null };
}

export function isLoopbackRedirectUri(uri: string): boolean {
  try {
    return isLoopback(new URL(uri).hostname.replace(/^\[(.*)\]$/, '$1'));
  } catch {
    return false;
  }
}
