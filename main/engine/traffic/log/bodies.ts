/**
 * The response bodies traffic entries share (migration 007): a body of SHARED_BODY_MIN characters
 * or more is stored once per distinct content, and entries hold its id. Players ask for the same
 * windows over and over, and writing (then trimming) each copy was most of what capture cost.
 *
 * A body is looked up without hashing it (hashing 5 kB bodies would cost more than storing them):
 * first in a slot picked by its length and three of its characters, then by the URL that
 * answered it, since the same request mostly gets the same answer (a window of an unchanged queue
 * version). Either way a hit is one full compare, and a pointer check when the server resent the
 * string remembered. Windows that differ in a digit can share a slot; the URL then finds them. A
 * URL whose answer changed stores the new body; forgetting one is harmless (the next copy is
 * stored anew). Ids are given at capture (`idOf`); the writes run inside the segment's
 * transaction.
 */
import type { SqliteDatabase } from '../../store/database.js';

/** Shorter bodies stay in their entry: a copy costs less than a lookup and a row of their own. */
export const SHARED_BODY_MIN = 512;
const shareable = (body: string | null): body is string => body !== null && body.length >= SHARED_BODY_MIN;
/** How many URLs' bodies are remembered for reuse (a few players' windows, many times over)... */
const REMEMBERED = 1_000;
/** ...as long as they come to no more than this many characters (large bodies: fewer of them). */
const REMEMBERED_CHARS = 4 * 1024 * 1024;
/**
 * `last_use` (an entry id) is set this many entries past the newest entry that uses a body (at
 * most a tenth of the entries the log keeps), so a body every segment uses is written once per
 * 10,000 entries, not once per segment (rewriting a 5 kB row costs about as much as storing it). A
 * body outlives its last entry by at most that many entries.
 */
export const DEFAULT_USE_AHEAD = 10_000;
/** Bodies kept once read back. */
const READ_CACHE = 64;
/** Slots of the memory by sample (a power of two). */
const SAMPLE_SLOTS = 1024;

/**
 * A body's slot: its length and three of its characters (windows of one queue differ in a few
 * digits and have nearly the same length; three characters spread them). Reads three characters,
 * whatever the body's size.
 */
function slotOf(body: string): number {
  const n = body.length;
  const sample =
    Math.imul(n, 0x9e3779b1) ^
    Math.imul(body.charCodeAt(n >> 1), 0x85ebca6b) ^
    Math.imul(body.charCodeAt(n >> 2), 0xc2b2ae35) ^
    body.charCodeAt(n - (n >> 2) - 1);
  return (sample ^ (sample >>> 15)) & (SAMPLE_SLOTS - 1);
}

interface Remembered {
  id: number;
  body: string;
  /** As stored in `last_use`: no entry after this one uses it yet. */
  lastUse: number;
}

/** What one segment uses: bodies it found or brought, to be marked used by its newest entry. */
export type BodyUses = Set<Remembered>;

export class TrafficBodies {
  /** The body each URL answered last, oldest URL first. */
  private readonly recent = new Map<string, Remembered>();
  /**
   * Remembered bodies by length and a few of their characters, one a slot, asked before
   * `recent`: the same body sent again is found with one compare (the same string object, which
   * ours sends for a cached item window, compares in one step), without hashing the URL (which
   * cost about as much as encoding the rest of the exchange). A body another URL answered
   * before is shared too.
   */
  private readonly bySample = new Array<Remembered | undefined>(SAMPLE_SLOTS);
  private recentChars = 0;
  /** Bodies the segment being captured brought, stored with it. */
  private readonly fresh: Remembered[] = [];
  private nextId: number;
  /** Bodies read back, by id (a page of entries shares a few). */
  private readonly read = new Map<number, string>();
  private readonly insert;
  private readonly select;
  private readonly markUsed;
  private readonly dropUnused;
  private readonly dropAll;

  constructor(
    db: SqliteDatabase,
    private readonly useAhead = DEFAULT_USE_AHEAD,
  ) {
    this.insert = db.prepare<[number, number, string]>(
      'INSERT INTO traffic_bodies (id, last_use, body) VALUES (?, ?, ?)',
    );
    this.select = db.prepare<[number], string>('SELECT body FROM traffic_bodies WHERE id = ?').pluck();
    this.markUsed = db.prepare<[number, string]>(
      'UPDATE traffic_bodies SET last_use = ? WHERE id IN (SELECT value FROM json_each(?))',
    );
    this.dropUnused = db.prepare<[number]>('DELETE FROM traffic_bodies WHERE last_use <= ?');
    this.dropAll = db.prepare('DELETE FROM traffic_bodies');
    this.nextId = (db.prepare('SELECT MAX(id) FROM traffic_bodies').pluck().get() as number | null) ?? 0;
  }

  /**
   * The id of the shared body a response from `url` has, taken at capture (0: keep `body` in the
   * entry). A body equal to the one `url` answered last is that one; another gets a new id and is
   * stored with the segment (`storeFresh`). The newest copy is the one remembered: a server that
   * caches its answers (ours caches item windows from their second read on) sends the same string
   * object every time, and comparing a string with itself is one pointer check, where comparing
   * two copies reads 5 kB.
   */
  idOf(url: string, body: string | null, uses: BodyUses): number {
    if (!shareable(body)) return 0;
    const slot = slotOf(body);
    let found = this.bySample[slot];
    if (found === undefined || found.body !== body) {
      found = this.recent.get(url);
      if (found !== undefined && found.body === body) found.body = body;
      else {
        found = { id: ++this.nextId, body, lastUse: 0 };
        this.fresh.push(found);
        this.remember(url, found);
      }
      this.bySample[slot] = found;
    }
    uses.add(found);
    return found.id;
  }

  /** The characters of the bodies the segment being captured brought (what its write adds to the log's size). */
  get freshChars(): number {
    let chars = 0;
    for (const body of this.fresh) chars += body.body.length;
    return chars;
  }

  /** Stores the bodies the segment being written brought (inside its transaction). */
  storeFresh(): void {
    for (const body of this.fresh) this.insert.run(body.id, body.lastUse, body.body);
    this.fresh.length = 0;
  }

  /** A stored body, by id. */
  text(id: number): string | null {
    let body = this.read.get(id);
    if (body === undefined) {
      body = this.select.get(id);
      if (body === undefined) return null;
      if (this.read.size >= READ_CACHE) this.read.delete(this.read.keys().next().value!);
      this.read.set(id, body);
    }
    return body;
  }

  private remember(url: string, body: Remembered): void {
    this.unremember(url);
    this.recent.set(url, body);
    this.recentChars += body.body.length;
    for (const oldest of this.recent.keys()) {
      if (this.recent.size <= REMEMBERED && this.recentChars <= REMEMBERED_CHARS) break;
      this.unremember(oldest);
    }
  }

  private unremember(url: string): void {
    const body = this.recent.get(url);
    if (body === undefined) return;
    this.recent.delete(url);
    const slot = slotOf(body.body);
    if (this.bySample[slot] === body) this.bySample[slot] = undefined;
    this.recentChars -= body.body.length;
  }

  /** Records that a segment up to entry `lastRow` of a log that keeps `keep` entries used these bodies, so trimming keeps them as long. */
  used(uses: BodyUses, lastRow: number, keep: number): void {
    const lastUse = lastRow + Math.min(this.useAhead, Math.floor(keep / 10));
    const ids: number[] = [];
    for (const body of uses) {
      if (body.lastUse >= lastRow) continue;
      body.lastUse = lastUse;
      ids.push(body.id);
    }
    if (ids.length > 0) this.markUsed.run(lastUse, JSON.stringify(ids));
  }

  /** Drops the bodies no entry after `edge` uses (the entries up to `edge` are being trimmed). */
  trim(edge: number): void {
    if (this.dropUnused.run(edge).changes === 0) return;
    for (const [url, body] of this.recent) if (body.lastUse <= edge) this.unremember(url);
    this.read.clear();
  }

  clear(): void {
    this.dropAll.run();
    this.forget();
    this.read.clear();
  }

  /** After a write that rolled back: what is remembered may name bodies that were never stored. */
  forget(): void {
    this.recent.clear();
    this.bySample.fill(undefined);
    this.recentChars = 0;
    this.fresh.length = 0;
  }
}
