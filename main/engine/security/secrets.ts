/** Secrets compared in constant time, so a caller cannot learn a token byte by byte from timing. */
import { timingSafeEqual } from 'node:crypto';

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
