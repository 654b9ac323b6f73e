/**
 * Headers that keep an answer out of every cache: on each of the token endpoint's answers (RFC 6749
 * §5.1) and the login service's other JSON, injected fault answers at the login service included.
 */
export const NO_STORE: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' };
