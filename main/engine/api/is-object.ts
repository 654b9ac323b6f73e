/** A JSON object: not an array, not null. What every reader of a peer's JSON asks first. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
