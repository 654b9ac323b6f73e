/**
 * What capture masked of an entry, as it came, held in memory only and put back on reads while
 * the console runs (docs/contract/console.md §9): the file holds the masked text, never this.
 * Held for the newest entries up to a count and a size, and let go with the entries trimming drops.
 * The log knows nothing of which parts are secret: capture says what it masked, as splices.
 */

/** A stretch of a stored part that capture masked: where it stands in the stored text, and what it was. */
export interface TextSplice {
  at: number;
  length: number;
  original: string;
}

/** An entry's masked stretches (url, bodies) and masked header values (by lower-case name, as reads show them). */
export interface HeldParts {
  url?: TextSplice[];
  requestHeaders?: Record<string, string>;
  requestBody?: TextSplice[];
  responseHeaders?: Record<string, string>;
  responseBody?: TextSplice[];
}

/** Entries whose masked parts are held: the newest ones. */
export const HELD_ENTRIES = 20_000;
/** Characters held in all (a bearer token of 15 KB in every request must not hold the heap). */
export const HELD_CHARS = 4 * 1024 * 1024;

/** The stored text with the masked stretches as they came. */
export function spliceBack(text: string, splices: readonly TextSplice[]): string {
  let out = '';
  let from = 0;
  for (const { at, length, original } of splices) {
    out += text.slice(from, at) + original;
    from = at + length;
  }
  return out + text.slice(from);
}

function splicedChars(splices: readonly TextSplice[] | undefined): number {
  let chars = 0;
  if (splices) for (const splice of splices) chars += splice.original.length;
  return chars;
}

function headerChars(headers: Record<string, string> | undefined): number {
  let chars = 0;
  for (const name in headers) chars += name.length + headers[name]!.length;
  return chars;
}

/** No closures: this runs on every masked entry (a bearer token in every player's request). */
function charsOf(parts: HeldParts): number {
  return (
    splicedChars(parts.url) +
    splicedChars(parts.requestBody) +
    splicedChars(parts.responseBody) +
    headerChars(parts.requestHeaders) +
    headerChars(parts.responseHeaders)
  );
}

/**
 * The held parts by entry id, oldest first (ids only grow). The order is kept in a queue of ids
 * beside the map: letting go of the oldest through the map's own order (`keys().next()`) walks
 * past every entry deleted since its table was last rebuilt, thousands of them in a full log,
 * and that walk was the most costly line of capture under load.
 */
export class HeldSecrets {
  private readonly byId = new Map<number, { parts: HeldParts; chars: number }>();
  /** Ids held, ascending, from `head` on (ids before it were let go). */
  private order: number[] = [];
  private head = 0;
  private chars = 0;

  constructor(
    private readonly maxEntries = HELD_ENTRIES,
    private readonly maxChars = HELD_CHARS,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  hold(id: number, parts: HeldParts): void {
    const chars = charsOf(parts);
    // One entry larger than the whole allowance is not held at all.
    if (chars > this.maxChars) return;
    this.byId.set(id, { parts, chars });
    this.order.push(id);
    this.chars += chars;
    while (this.byId.size > this.maxEntries || this.chars > this.maxChars) this.forgetOldest();
  }

  get(id: number): HeldParts | undefined {
    return this.byId.get(id)?.parts;
  }

  /** Lets go of the entries up to `edge` (trimming dropped them). */
  dropThrough(edge: number): void {
    while (this.head < this.order.length && this.order[this.head]! <= edge) this.forgetOldest();
  }

  clear(): void {
    this.byId.clear();
    this.order = [];
    this.head = 0;
    this.chars = 0;
  }

  private forgetOldest(): void {
    const id = this.order[this.head++]!;
    const held = this.byId.get(id);
    if (held) {
      this.byId.delete(id);
      this.chars -= held.chars;
    }
    // The queue's front is cut off once it is most of the array: amortized O(1) a hold.
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }
}

/** Headers as read, with the values capture masked as they came (held in memory). */
export function withHeld(
  headers: Record<string, string>,
  held: Record<string, string> | undefined,
): Record<string, string> {
  if (held) for (const name in held) headers[name] = held[name]!;
  return headers;
}
