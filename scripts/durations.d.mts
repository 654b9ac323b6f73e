/** See durations.mjs: a duration as `npm test` prints it. */
export function duration(ms: number): string;
