/** Schemas that many commands share. */
import Type from 'typebox';

export const Empty = Type.Object({});
export const Id = Type.Object({ id: Type.String({ minLength: 1 }) });
