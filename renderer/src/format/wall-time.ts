/**
 * When something kept in a list started (a check's run, a fleet), in the machine's time zone:
 * the time of day for today's, the date too for older ones.
 */
export function startedText(startedAt: number, now: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const d = new Date(startedAt);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  const day = (at: Date) => `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return day(d) === day(new Date(now)) ? time : `${day(d)} ${time}`;
}
