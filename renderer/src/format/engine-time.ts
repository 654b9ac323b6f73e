/**
 * Engine time as every area writes it, in the machine's time zone. One module, so that the clock,
 * the traffic log, the player's timeline and the scenario reports line their times up.
 */
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2026-11-21 09:05:07`; with `millis`, `…:07.083` (to line up retries with transitions). */
export function formatEngineTime(ms: number, { millis = false }: { millis?: boolean } = {}): string {
  const d = new Date(ms);
  const seconds = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${formatTimeOfDay(d)}`;
  return millis ? `${seconds}.${pad(d.getMilliseconds(), 3)}` : seconds;
}

/** `09:05:07.083`: the time of day to the millisecond, for lists where the date is in the title. */
export function formatEngineClock(ms: number): string {
  const d = new Date(ms);
  return `${formatTimeOfDay(d)}.${pad(d.getMilliseconds(), 3)}`;
}

function formatTimeOfDay(d: Date): string {
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
