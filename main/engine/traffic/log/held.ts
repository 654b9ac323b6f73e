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
 * The held parts by entry id, oldest first (ids only grow), in a ring of `maxEntries` slots:
 * the ids in a typed array, the parts beside them, found by binary search on a read.
 *
 * Why a ring: holding is on capture's path (every player's bearer token is masked, so nearly
 * every entry holds something), and everything held lives as long as the newest 20,000 entries:
 * long enough for the collector to move it to the old generation, where it later dies. A map of
 * `{ parts, chars }` per entry made the most of capture's garbage there (81 of the 167 bytes
 * capture moved to the old generation a request under the traffic-memory bench's load), and
 * the old generation's swings were the log's memory spread. The ring allocates nothing a hold;
 * capture shares one parts object among the entries that sent the same masked header block.
 */
export class HeldSecrets {
  private readonly ids: Float64Array;
  private readonly parts: (HeldParts | undefined)[];
  private readonly chars: Int32Array;
  /** The oldest held entry's slot, and how many are held from it on. */
  private head = 0;
  private count = 0;
  private totalChars = 0;

  constructor(
    private readonly maxEntries = HELD_ENTRIES,
    private readonly maxChars = HELD_CHARS,
  ) {
    this.ids = new Float64Array(maxEntries);
    this.parts = new Array<HeldParts | undefined>(maxEntries).fill(undefined);
    this.chars = new Int32Array(maxEntries);
  }

  get size(): number {
    return this.count;
  }

  /** Ids must grow from one hold to the next (entries are written in id order). */
  hold(id: number, parts: HeldParts): void {
    const chars = charsOf(parts);
    // One entry larger than the whole allowance is not held at all.
    if (chars > this.maxChars || this.maxEntries === 0) return;
    if (this.count === this.maxEntries) this.forgetOldest();
    while (this.count > 0 && this.totalChars + chars > this.maxChars) this.forgetOldest();
    const slot = (this.head + this.count) % this.maxEntries;
    this.ids[slot] = id;
    this.parts[slot] = parts;
    this.chars[slot] = chars;
    this.count++;
    this.totalChars += chars;
  }

  get(id: number): HeldParts | undefined {
    // Binary search over the held ids, ascending from the oldest.
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const slot = (this.head + middle) % this.maxEntries;
      const at = this.ids[slot]!;
      if (at === id) return this.parts[slot];
      if (at < id) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** Lets go of the entries up to `edge` (trimming dropped them). */
  dropThrough(edge: number): void {
    while (this.count > 0 && this.ids[this.head]! <= edge) this.forgetOldest();
  }

  clear(): void {
    while (this.count > 0) this.forgetOldest();
  }

  private forgetOldest(): void {
    const slot = this.head;
    this.totalChars -= this.chars[slot]!;
    // Let go of the parts now, not when the slot is next written.
    this.parts[slot] = undefined;
    this.head = (slot + 1) % this.maxEntries;
    this.count--;
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
