/** Schemas that many commands share. */
import Type from 'typebox';

/**
 * An object's schema option: no field it does not know. A misspelt field would otherwise be
 * dropped without a word, and what it meant left unchecked.
 */
export const Strict = { additionalProperties: false } as const;

/**
 * A schema spelled out beside the API type it checks (a union mapped from a list has no static type):
 * `true` only when each is assignable to the other, so that the two cannot drift apart unseen.
 * Optional fields escape it (an object without one is assignable to one with it): `SameFields`
 * compares them by name too.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;

/**
 * `true` when two objects have the same field names and each is assignable to the other; for unions
 * tagged by `type` (a scenario's steps, a fault's actions), member by member. `never` otherwise: give
 * each check a const of its own, since `never` is assignable to `true` inside a tuple or a condition.
 * Names are compared one level deep: a nested object with optional fields needs a check of its own
 * (a step's rule and action have theirs, commands/faults.ts).
 */
export type SameFields<A, B> = [Same<A, B>] extends [never] ? never : FieldNamesAgree<A, B> extends true ? true : never;
type Kind<T> = T extends { type: infer K extends PropertyKey } ? K : never;
type FieldsOf<T, K> = keyof Extract<T, { type: K }>;
/** Per member: `false` where the names differ (`Same` is `never` there, which a union would drop). */
type FieldNamesAgree<A, B> = [Kind<A> | Kind<B>] extends [never]
  ? [Same<keyof A, keyof B>] extends [never]
    ? false
    : true
  : {
      [K in Kind<A> | Kind<B>]: [Same<FieldsOf<A, K>, FieldsOf<B, K>>] extends [never] ? false : true;
    }[Kind<A> | Kind<B>];

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
