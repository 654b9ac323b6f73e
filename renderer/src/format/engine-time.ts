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

/** The engine day a moment falls on, `2026-11-21`: what `formatEngineMoment` compares. */
export function engineDay(ms: number): string {
  return formatEngineTime(ms).slice(0, 10);
}

/**
 * `09:05:07` for a moment of the engine's current day, `2026-11-20 23:28:03` for any other: after
 * a +24h jump, yesterday's grant must not read as a moment ago.
 */
export function formatEngineMoment(ms: number, today: string | null): string {
  const full = formatEngineTime(ms);
  return today !== null && full.startsWith(today) ? full.slice(11) : full;
}

function formatTimeOfDay(d: Date): string {
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
