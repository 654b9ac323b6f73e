/**
 * A duration as `npm test` prints it: seconds with a tenth under a minute, then whole minutes and
 * seconds. The seconds are rounded before the minutes are taken, so 18 min 59.6 s reads 19 min 0 s,
 * never "18 min 60 s".
 */
export function duration(ms) {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const whole = Math.round(ms / 1000);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}
