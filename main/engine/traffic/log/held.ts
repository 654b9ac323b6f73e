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

function charsOf(parts: HeldParts): number {
  let chars = 0;
  const add = (splices: readonly TextSplice[] | undefined) => {
    for (const splice of splices ?? []) chars += splice.original.length;
  };
  const addHeaders = (headers: Record<string, string> | undefined) => {
    for (const name in headers) chars += name.length + headers[name]!.length;
  };
  add(parts.url);
  add(parts.requestBody);
  add(parts.responseBody);
  addHeaders(parts.requestHeaders);
  addHeaders(parts.responseHeaders);
  return chars;
}

/** The held parts by entry id, oldest first (ids only grow). */
export class HeldSecrets {
  private readonly byId = new Map<number, { parts: HeldParts; chars: number }>();
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
    this.chars += chars;
    while (this.byId.size > this.maxEntries || this.chars > this.maxChars) this.forget(this.byId.keys().next().value!);
  }

  get(id: number): HeldParts | undefined {
    return this.byId.get(id)?.parts;
  }

  /** Lets go of the entries up to `edge` (trimming dropped them). */
  dropThrough(edge: number): void {
    for (const id of this.byId.keys()) {
      if (id > edge) return;
      this.forget(id);
    }
  }

  clear(): void {
    this.byId.clear();
    this.chars = 0;
  }

  private forget(id: number): void {
    const held = this.byId.get(id);
    if (!held) return;
    this.byId.delete(id);
    this.chars -= held.chars;
  }
}
