/**
 * PKCE (RFC 7636), S256 only: the challenge is BASE64URL(SHA-256(verifier)), 43 characters; the
 * verifier is 43 to 128 unreserved characters. `plain` is refused: it protects nothing that S256
 * does not protect better. The hash and the comparison are the secrets module's (`s256`).
 */
import { s256, sameSecret } from './secrets.js';

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function isWellFormedChallenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

export function isWellFormedVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

export function verifierMatches(challenge: string, verifier: string): boolean {
  return sameSecret(challenge, s256(verifier));
}
