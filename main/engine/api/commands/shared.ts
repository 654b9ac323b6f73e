/** Schemas that many commands share. */
import Type from 'typebox';

export const Empty = Type.Object({});
export const Id = Type.Object({ id: Type.String({ minLength: 1 }) });

/** A whole number ≥ 0 that SQLite and JavaScript both hold exactly (1e20 was a 500 "datatype mismatch"). */
export const Whole = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
