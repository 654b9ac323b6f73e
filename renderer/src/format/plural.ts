/** "1 item", "19 items", "100,000 items": a count and its noun, in words a reader expects. */
export function plural(count: number, noun: string): string {
  return `${count.toLocaleString()} ${noun}${count === 1 ? '' : 's'}`;
}
