/**
 * A case's late requests, bounded by what is left of the run: a slow server's last few answers
 * must not take the run's deadline past a case that had nothing left to prove, failing a run
 * that otherwise passed (review). The requests go on; their answers, when they come, are heard
 * as any, but the verdict does not wait for them.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function withinTime<T>(work: Promise<T>, leftMs: number, late: T): Promise<T> {
  // No deadline: a timer of Infinity (or past 2^31 ms) would fire at once.
  if (!(leftMs < MAX_TIMER_MS)) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), Math.max(0, leftMs));
  });
  try {
    return await Promise.race([work, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
