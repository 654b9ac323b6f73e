/**
 * Bodies found without secrets lately, for the secrets known at one version. Reading a 5 kB body
 * for secrets (by name and by value) costs tens of µs, more than storing it. A server that caches
 * its answers (ours caches item windows) sends the same text again, and a Map finds a string it
 * holds by its hash, which V8 keeps on the string. Players ask for many windows (a bench of 100
 * distinct ones missed a cache of 8 nearly every time, and masking by value then cost 60 µs a
 * request), so a few hundred are held, up to a size in all. Large bodies only (a short one reads
 * fast), forgotten when a new secret is known (a body clean before may hold it).
 *
 * A body is held from its second sighting on, not its first. Hashing a new 5 kB string to look
 * it up, and holding it in the Map, cost a window the cache does not keep (10,000 windows in
 * turn) about a tenth of its capture (docs/decisions/perf-capture-off-the-request-path.md). So a
 * body is looked up only when a body with its print is held (`mayHold`), and a body's print is
 * first noted in a slot (`seenOnce`); only a body whose print is already there is held. A print
 * shared by two bodies costs a lookup or a hold, never an answer: the Map compares the text
 * itself. A kept window's text comes as the same string every time, and is found by a pointer
 * first (`recent`).
 */

const CLEAN_BODIES = 512;
const CLEAN_BODY_CHARS = 8 * 1024 * 1024;
const CLEAN_BODY_MIN = 512;
/** Prints of bodies seen once: a body seen again within about this many others is held. */
const SEEN_SLOTS = 4_096;
/** Prints that may stand for a held body, by their low 16 bits. */
const MAY_HOLD_SLOTS = 65_536;
/** Held bodies' latest strings, by length. */
const RECENT_SLOTS = 1_024;

export class CleanBodies {
  /**
   * Each body by its text, and whether it is held as the string of its first look since (see
   * `has`). Oldest first, but for that first look, which moves a body to the newest end: the
   * first goes when the count or the size is passed.
   */
  private readonly bodies = new Map<string, boolean>();
  private chars = 0;
  /** The version of the known secrets the bodies were found clean with. */
  private at = -1;
  private readonly seenOnce = new Uint32Array(SEEN_SLOTS);
  private readonly mayHold = new Uint8Array(MAY_HOLD_SLOTS);
  /** Slots of `mayHold` set: when they pass the Map's room many times over, they are set again from it. */
  private marked = 0;
  /**
   * The string a held body came as last, in a slot by its length: a kept window's text comes as
   * the one string every time, and is then found by a pointer, before its print is read or the
   * Map asked. Only held bodies are here (one that goes is taken out), so it holds no more.
   */
  private readonly recent = new Array<string | undefined>(RECENT_SLOTS).fill(undefined);

  /** Whether the body was found clean lately, with the secrets known at `version`. */
  has(body: string, version: number): boolean {
    if (this.at !== version) this.forgetAll(version);
    if (body.length < CLEAN_BODY_MIN) return false;
    if (this.recent[body.length & (RECENT_SLOTS - 1)] === body) return true;
    if (this.mayHold[printOf(body) & (MAY_HOLD_SLOTS - 1)] === 0) return false;
    const rekeyed = this.bodies.get(body);
    if (rekeyed === undefined) return false;
    this.recent[body.length & (RECENT_SLOTS - 1)] = body;
    // A body held as one string may come again as another with the same text (a window read from
    // the store, then the cache's own). Two strings are compared char by char (5 kB, 1.5-2 µs a
    // look under load, their memory gone cold between two requests); a string with itself, by a
    // pointer. So the body is held once more as the string of its first look since.
    if (!rekeyed) {
      this.bodies.delete(body);
      this.bodies.set(body, true);
    }
    return true;
  }

  /** Notes a body read and found clean with the secrets known at `version`; held if it was seen before. */
  remember(body: string, version: number): void {
    if (this.at !== version) this.forgetAll(version);
    if (body.length < CLEAN_BODY_MIN || body.length > CLEAN_BODY_CHARS) return;
    const print = printOf(body);
    const slot = print & (SEEN_SLOTS - 1);
    if (this.seenOnce[slot] !== print) {
      this.seenOnce[slot] = print;
      return;
    }
    if (this.bodies.has(body)) return;
    this.bodies.set(body, false);
    this.chars += body.length;
    this.mark(print);
    this.recent[body.length & (RECENT_SLOTS - 1)] = body;
    while (this.bodies.size > CLEAN_BODIES || this.chars > CLEAN_BODY_CHARS) {
      const oldest = this.bodies.keys().next().value!;
      this.bodies.delete(oldest);
      this.chars -= oldest.length;
      const slot = oldest.length & (RECENT_SLOTS - 1);
      if (this.recent[slot] === oldest) this.recent[slot] = undefined;
    }
  }

  private mark(print: number): void {
    const slot = print & (MAY_HOLD_SLOTS - 1);
    if (this.mayHold[slot] === 1) return;
    this.mayHold[slot] = 1;
    // Bodies that went leave their marks: once far more are marked than held, only the held stay.
    if (++this.marked <= CLEAN_BODIES * 8) return;
    this.mayHold.fill(0);
    this.marked = 0;
    for (const body of this.bodies.keys()) {
      const held = printOf(body) & (MAY_HOLD_SLOTS - 1);
      if (this.mayHold[held] === 0) {
        this.mayHold[held] = 1;
        this.marked++;
      }
    }
  }

  /**
   * A new secret is known: no body is held any more. What was seen once stays noted (it only says
   * a body came before; a body is still read in full before it is held), and the marks are wiped
   * only if some were made: a fleet's start learns a token a player, thousands in a row.
   */
  private forgetAll(version: number): void {
    if (this.bodies.size > 0) this.recent.fill(undefined);
    this.bodies.clear();
    this.chars = 0;
    if (this.marked > 0) {
      this.mayHold.fill(0);
      this.marked = 0;
    }
    this.at = version;
  }
}

/** Characters a body's print reads, at most. */
const PRINT_SAMPLES = 61;

/**
 * A body's length and up to PRINT_SAMPLES of its characters, mixed: about 0.1 µs however long
 * the body is. The characters are read at an odd stride, so that a body made of one repeated
 * shape (a list of items) is read at every place of that shape, not always at the same one.
 */
function printOf(body: string): number {
  const length = body.length;
  const stride = Math.floor(length / PRINT_SAMPLES) | 1;
  let hash = length;
  for (let at = stride >> 1, n = 0; at < length && n < PRINT_SAMPLES; at += stride, n++)
    hash = Math.imul(hash ^ body.charCodeAt(at), 0x9e3779b1);
  return (hash ^ (hash >>> 15)) >>> 0;
}
