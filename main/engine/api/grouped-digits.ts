/**
 * `10,000` for 10000, as `toLocaleString('en-US')` writes a whole number, without it: the first
 * `toLocaleString` of a process loads the locale data (about 8 MB and tens of milliseconds), and a
 * constant written into a message when its module loads would pay that on the way to the ready
 * line (docs/decisions/perf-start.md). For constants; text shown later may use either.
 */
export function groupedDigits(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`groupedDigits: ${n} is not a whole number`);
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}
