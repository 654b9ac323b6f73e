/**
 * A text as a player's detail shows it: cut at SHOWN_CHARS (detail-view.ts says why). Apart from
 * the detail's view so that what imports nothing of the player (its failing mark) can cut too.
 */

/** Characters of one text a detail shows; a signed media URL is a few hundred. */
export const SHOWN_CHARS = 4_096;

/** `text`, or its first SHOWN_CHARS characters and an ellipsis with how many there were. */
export function shown(text: string): string {
  if (text.length <= SHOWN_CHARS) return text;
  return `${text.slice(0, SHOWN_CHARS)}… (${text.length.toLocaleString('en-US')} characters)`;
}
