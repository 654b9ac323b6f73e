/**
 * What masking made of header blocks and URLs seen lately, found mostly without hashing them.
 * Every captured block is a new string (a request's is added up from its raw lines, a response's
 * is the head node wrote), and V8 hashes a string it has not hashed before char by char: a Map
 * keyed by the blocks spent about 0.5 µs a lookup on a 210-character request block, more than
 * finding and comparing it (docs/decisions/perf-capture-off-the-request-path.md).
 *
 * So a lookup first tries one slot picked by a fingerprint (the text's length and nine of its
 * characters, spread over it), believed only when the slot's text is the same. Texts that differ
 * only between those characters (a hundred windows' URLs that differ in an item id, their
 * answers' blocks in a Content-Length) pick the same slot and take it from each other, so behind
 * the slots a Map holds every text set lately, found by its hash when its slot has another; the
 * one found takes its slot back. The Map is emptied when it holds as many texts as there are
 * slots. A text longer than `maxChars` is never held.
 *
 * Without `behind`, the slots alone: for texts that come again whole or not at all, a request's
 * header block (a client sends the same block every time, or a new X-Request-Id in each). In a
 * fleet, where every request block is new, the Map behind cost as much as masking them.
 */
export class BlockMemo<Value> {
  private readonly blocks: (string | undefined)[];
  private readonly values: (Value | undefined)[];
  private readonly mask: number;
  private readonly held = new Map<string, Value>();

  /** `slots`: a power of two. `behind`: whether a Map behind the slots holds what they lose. */
  constructor(
    slots: number,
    private readonly maxChars: number,
    private readonly behind = true,
  ) {
    if (!Number.isInteger(Math.log2(slots))) throw new Error(`BlockMemo needs a power of two slots, not ${slots}`);
    this.blocks = new Array<string | undefined>(slots).fill(undefined);
    this.values = new Array<Value | undefined>(slots).fill(undefined);
    this.mask = slots - 1;
  }

  /** What was held for this very text, or undefined. */
  get(block: string): Value | undefined {
    if (block.length > this.maxChars) return undefined;
    const slot = fingerprint(block) & this.mask;
    if (this.blocks[slot] === block) return this.values[slot];
    if (!this.behind) return undefined;
    const value = this.held.get(block);
    if (value !== undefined) {
      this.blocks[slot] = block;
      this.values[slot] = value;
    }
    return value;
  }

  set(block: string, value: Value): void {
    if (block.length > this.maxChars) return;
    const slot = fingerprint(block) & this.mask;
    this.blocks[slot] = block;
    this.values[slot] = value;
    if (!this.behind) return;
    if (this.held.size >= this.blocks.length) this.held.clear();
    this.held.set(block, value);
  }

  clear(): void {
    this.blocks.fill(undefined);
    this.values.fill(undefined);
    this.held.clear();
  }
}

/** The length and nine characters from first to last, mixed: blocks that differ by a Date or an id mostly part here. */
function fingerprint(block: string): number {
  const last = block.length - 1;
  let hash = block.length;
  if (last < 0) return hash;
  for (let i = 0; i <= 8; i++) hash = Math.imul(hash ^ block.charCodeAt((last * i) >>> 3), 0x9e3779b1);
  return (hash ^ (hash >>> 15)) >>> 0;
}
