/** Schemas that many commands share. */
import Type from 'typebox';

/**
 * A schema spelled out beside the API type it checks (a union mapped from a list has no static type):
 * `true` only when each is assignable to the other, so that the two cannot drift apart unseen.
 * Optional fields escape it (an object without one is assignable to one with it): compare those by
 * name where they matter (commands/scenarios.ts).
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;

export const Empty = Type.Object({});
export const Id = Type.Object({ id: Type.String({ minLength: 1 }) });

/**
 * A value an HTTP header can carry (RFC 9110 field-value: tab, visible ASCII and space, obs-text),
 * as Node checks it: a line break, a NUL or an emoji would fail the request or answer it goes in.
 */
export const HeaderValue = (options: { minLength?: number; maxLength?: number } = {}) =>
  Type.String({ ...options, pattern: '^[\\t\\x20-\\x7E\\x80-\\xFF]*$' });

/** A whole number ≥ 0 that SQLite and JavaScript both hold exactly (1e20 was a 500 "datatype mismatch"). */
export const Whole = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
