/**
 * Secrets known by value (docs/contract/console.md §9): every secret the console issued or was
 * given, so that capture finds it wherever it appears, not only under a field name it knows (a
 * HAR's header `value`, a curl line in a JSON string, a header of any name).
 *
 * Learned two ways: what capture masks by field name is added as it is masked (a token leaves
 * the login service in its token response, a client secret in its create answer, an integrator's
 * token arrives in a conformance run's `authorization`), and the console adds what it made itself
 * and never sent (its admin token, a PKCE verifier it holds for a captured redirect).
 *
 * Secrets the console issued before it last started and that still work survive only as SHA-256
 * hashes in its store: `addHashed` holds those (`login/stored-secrets.ts` hands it live tokens and
 * client secrets, not codes), and a run of the same length (and first characters, where the store
 * kept them) is hashed and looked up. Found once, it is held by value from then on. Without them, a live token sent after a restart in a
 * header of any name, a path or an admin call's body was stored in clear (audit).
 *
 * Finding is one pass over a text: a secret is held as its base64url runs of at least
 * MIN_SECRET_LENGTH characters (the whole of every secret the console makes; each part of a JWT),
 * a text is cut into the same runs, and each run is looked up in a set. Shorter pieces are not
 * held: they would mask ordinary words.
 */
import { hash } from 'node:crypto';

export const MIN_SECRET_LENGTH = 16;
/** Runs held at most; the oldest are let go first (a long session issues many tokens). */
export const MAX_KNOWN_SECRETS = 100_000;
/**
 * Characters of runs held at most, the oldest let go first: the count alone let a client that
 * sends a new long bearer token with each request (a header takes up to 16 kB) grow the engine by
 * about 2 kB a request, towards 1.6 GB. Far more than real secrets take (100,000 tokens of 64).
 */
export const MAX_KNOWN_SECRET_CHARS = 8 * 1024 * 1024;

/**
 * base64url's characters, by char code (every UTF-16 code unit has a place, so a lookup needs no
 * range check first): a run is a stretch of them.
 */
const IN_RUN = new Uint8Array(65_536);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') IN_RUN[char.charCodeAt(0)] = 1;

/**
 * Calls `visit` with each run of at least MIN_SECRET_LENGTH characters. Loops over char codes,
 * not a regular expression: one with a minimum length restarts at every character of every
 * shorter word (three times slower on a window's body), and this runs on every body capture has
 * not seen before. Two tight loops, one over what separates runs and one along a run, took about
 * a quarter less on a 5 kB window body than one loop asking at every character whether a run
 * starts or ends there (docs/decisions/perf-capture-off-the-request-path.md).
 */
function eachRun(text: string, visit: (start: number, end: number) => void): void {
  for (let start = runFrom(text, 0); start < text.length;) {
    const end = runEnd(text, start);
    if (end - start >= MIN_SECRET_LENGTH) visit(start, end);
    start = runFrom(text, end);
  }
}

/** The first index from `i` on that is in a run (the text's length: none). */
function runFrom(text: string, i: number): number {
  while (i < text.length && IN_RUN[text.charCodeAt(i)] === 0) i++;
  return i;
}

/** The index just past the run `start` is in. */
function runEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && IN_RUN[text.charCodeAt(i)] === 1) i++;
  return i;
}

/** A stretch of a text that holds a known secret: `[start, end)`. */
export interface SecretRange {
  start: number;
  end: number;
}

export class KnownSecrets {
  private readonly runs = new Set<string>();
  /** Hashes (base64) of secrets held only hashed. */
  private readonly hashed = new Set<string>();
  /**
   * The length of each secret held hashed, with the first characters of those of that length, all
   * as long (a run whose first characters are none of them is not hashed: one lookup, however many
   * are held); null: some have none kept, or starts of two lengths, so every run of that length is hashed.
   */
  private readonly hashedStarts = new Map<number, { length: number; starts: Set<string> } | null>();
  /** How many held runs have each length: only a run as long as one held is sliced and looked up. */
  private readonly lengths = new Map<number, number>();
  private chars = 0;
  private changes = 0;
  /** The value `add` took last: the same one again (a player's token, request after request) changes nothing. */
  private last: string | null = null;

  /** How many runs are held. */
  get size(): number {
    return this.runs.size;
  }

  /** Moves whenever a new run is held: what was found clean before may not be now. */
  get version(): number {
    return this.changes;
  }

  /** Holds a secret's runs (an auth scheme before it is not one: it is shorter than a run). */
  add(value: string | null | undefined): void {
    if (!value || value.length < MIN_SECRET_LENGTH || value === this.last || value.includes('•')) return;
    this.last = value;
    eachRun(value, (start, end) => {
      const run = value.slice(start, end);
      if (this.runs.has(run)) {
        // A run used again moves to the newest end, so an often-used token is the last to go.
        this.runs.delete(run);
        this.runs.add(run);
        return;
      }
      this.runs.add(run);
      this.lengths.set(run.length, (this.lengths.get(run.length) ?? 0) + 1);
      this.chars += run.length;
      this.changes++;
      while (this.runs.size > MAX_KNOWN_SECRETS || this.chars > MAX_KNOWN_SECRET_CHARS)
        this.forget(this.runs.values().next().value!);
    });
  }

  /**
   * Holds a secret the store keeps only as its SHA-256 `hash`: `length` characters long, starting
   * with `start` when the store kept its first characters.
   */
  addHashed(hash: Buffer, length: number, start: string | null): void {
    if (length < MIN_SECRET_LENGTH || this.hashed.size >= MAX_KNOWN_SECRETS) return;
    this.hashed.add(hash.toString('base64'));
    const held = this.hashedStarts.get(length);
    if (start === null || held === null || (held && held.length !== start.length)) this.hashedStarts.set(length, null);
    else if (held === undefined) this.hashedStarts.set(length, { length: start.length, starts: new Set([start]) });
    else held.starts.add(start);
    this.changes++;
  }

  /** Whether the run `[start, end)` of `text` is a secret held hashed; found, it is held by value from now on. */
  private isHashed(text: string, start: number, end: number): boolean {
    const held = this.hashedStarts.get(end - start);
    if (held === undefined) return false;
    if (held !== null && !held.starts.has(text.slice(start, start + held.length))) return false;
    const run = text.slice(start, end);
    if (!this.hashed.has(hash('sha256', run, 'base64'))) return false;
    this.add(run);
    return true;
  }

  private forget(run: string): void {
    this.runs.delete(run);
    this.chars -= run.length;
    const left = this.lengths.get(run.length)! - 1;
    if (left === 0) this.lengths.delete(run.length);
    else this.lengths.set(run.length, left);
  }

  /** Where `text` holds a known secret, in order. */
  find(text: string): SecretRange[] {
    const found: SecretRange[] = [];
    if ((this.runs.size === 0 && this.hashed.size === 0) || text.length < MIN_SECRET_LENGTH) return found;
    // eachRun's walk without its callback: this runs on every part of every exchange captured.
    // Only a run as long as one held is sliced and looked up.
    const { lengths, runs } = this;
    for (let start = runFrom(text, 0); start < text.length;) {
      const end = runEnd(text, start);
      if (
        end - start >= MIN_SECRET_LENGTH &&
        ((lengths.has(end - start) && runs.has(text.slice(start, end))) ||
          (this.hashedStarts.size > 0 && this.isHashed(text, start, end)))
      )
        found.push({ start, end });
      start = runFrom(text, end);
    }
    return found;
  }
}
