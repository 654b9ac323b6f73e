/**
 * A 404 to a window asked around an item the run saw earlier (docs/conformance.md, "An item gone
 * with an edit"). platform.md §7.1 has a server answer 404 for an itemId its queue does not have,
 * and a queue edited while the check runs may lose an item the suite learnt before the edit: the
 * 404 is then the server's right, and a case that failed it blamed a valid server (audit: 118 of
 * 744 runs with removals). It is right only when the queue did change: GET /version, asked twice
 * right after the 404 and the same both times (a version that moves by itself is no edit; one that
 * moved between the two asks is asked a third time, and the last two must agree), names
 * another version than the newest the item was seen in, or a window since did. A 404 for an item
 * of the version the server still names is the defect it always was.
 */
import { createHash } from 'node:crypto';
import { isVersion, versionOf } from './version-answer.js';
import { requestLine, type Answer, type CheckedServer } from './server.js';
import { idOf, type WindowView } from './window-view.js';

/**
 * Ids whose newest version is kept: a walk reaches 20,000, a play of a long queue goes on. Past
 * it, ids not seen before are not kept (a 404 for one is judged as before), ids kept go on being
 * updated.
 */
export const SIGHTED_IDS = 100_000;

/** Versions longer than this are kept as a fingerprint: a server may send a new long one with every window. */
const KEPT_VERSION_CHARS = 256;

/** A version as it is kept and compared: itself, or its start and a hash of it when it is long. */
export function versionKey(version: string): string {
  if (version.length <= KEPT_VERSION_CHARS) return version;
  const hash = createHash('sha256').update(version).digest('hex').slice(0, 16);
  return `${version.slice(0, 64)}… (${version.length} characters, sha-256 ${hash})`;
}

/** The newest queueVersion each item id was seen in, over every window of the run (a fault rule's aside). */
export class ItemSightings {
  private readonly versions = new Map<string, string>();
  /** The newest window's version key: ids seen in it share the string. */
  private newest: string | undefined;
  private newestWhole: string | undefined;

  add(view: WindowView): void {
    const version = view.queueVersion;
    if (!isVersion(version) || view.answer.exchange.fault) return;
    if (version !== this.newest) this.newest = versionKey(version);
    this.newestWhole = version.length <= KEPT_VERSION_CHARS ? version : undefined;
    for (const item of view.items) {
      const id = idOf(item);
      if (id === null) continue;
      if (this.versions.has(id) || this.versions.size < SIGHTED_IDS) this.versions.set(id, this.newest);
    }
  }

  /** The newest version (its key) a window held `itemId` in; undefined when none did (or it was past SIGHTED_IDS). */
  seenIn(itemId: string): string | undefined {
    return this.versions.get(itemId);
  }

  /** The version (its key) of the newest window of the run. */
  get newestVersion(): string | undefined {
    return this.newest;
  }

  /** The newest window's version as it came, when it was kept whole: what a player holding it sends. */
  get newestQueueVersion(): string | undefined {
    return this.newestWhole;
  }
}

/** An item a 404 said is gone, after the queue changed from the version it was seen in. */
export interface Gone {
  itemId: string;
  /** The 404. */
  answer: Answer;
  /** The newest version the item was seen in, and the one GET /version named after the 404. */
  seenIn: string;
  now: string;
  /** GET /version's two answers that agreed. */
  polled: Answer;
  polledAgain: Answer;
  /** An answer before them that named another version: an edit landed between the first two asks. */
  movedFrom?: Answer;
}

/**
 * Whether `answer`, a 404 to a window asked around `itemId`, is right because the queue changed
 * since `seenIn`: asks GET /version twice, back to back. Null for any other answer, for an item
 * seen in no version, for a /version that moves between the two asks (by itself: no edit) or that
 * a fault rule answered, and when neither /version nor the run's newest window (`newestSeen`)
 * names another version than the one the item was seen in.
 */
export async function goneWithEdit(
  server: CheckedServer,
  answer: Answer,
  itemId: string | undefined,
  seenIn: unknown,
  newestSeen?: string,
): Promise<Gone | null> {
  if (answer.status !== 404 || answer.exchange.fault || itemId === undefined || !isVersion(seenIn)) return null;
  let movedFrom: Answer | undefined;
  let polled = await server.version();
  let polledAgain = await server.version();
  // An edit between the two asks moves the version once (CI: a server that edits after a poll, a
  // valid one, failed): asked a third time, the last two agree. A version that moves by itself,
  // at every ask, never does.
  if (versionText(polled) !== versionText(polledAgain)) {
    movedFrom = polled;
    polled = polledAgain;
    polledAgain = await server.version();
  }
  if (polled.exchange.fault || polledAgain.exchange.fault || movedFrom?.exchange.fault) return null;
  const first = versionText(polled);
  if (first === undefined || first !== versionText(polledAgain)) return null;
  const [seen, now] = [versionKey(seenIn), versionKey(first)];
  // /version may lag behind the windows (a cache): a newer window is the edit's word too.
  const newer = newestSeen !== undefined && newestSeen !== seen ? newestSeen : undefined;
  if (now === seen && newer === undefined) return null;
  return {
    itemId,
    answer,
    seenIn: seen,
    now: now === seen ? newer! : now,
    polled,
    polledAgain,
    ...(movedFrom ? { movedFrom } : {}),
  };
}

/** The version GET /version named, or undefined for any other answer. */
function versionText(answer: Answer): string | undefined {
  const version = versionOf(answer);
  return isVersion(version) ? version : undefined;
}

/** A case's 404s judged by where the run last saw each item: /version asked once for each item. */
export class GoneItems {
  /** Each item's finding: a case asks about a few items, many times (`reasons`: sixteen asks, two items). */
  private readonly found = new Map<string, Gone | null>();

  constructor(
    private readonly server: CheckedServer,
    private readonly sightings: ItemSightings,
  ) {}

  /**
   * The item gone, when `answer` is a 404 to a window around `itemId` and the queue changed since
   * the run last saw it; `fallback` is the version the case knew it in when the run kept none
   * (the play's own window, past SIGHTED_IDS).
   */
  async after(answer: Answer, itemId: string | undefined, fallback?: unknown): Promise<Gone | null> {
    if (answer.status !== 404 || answer.exchange.fault || itemId === undefined) return null;
    if (this.found.has(itemId)) {
      const known = this.found.get(itemId);
      return known ? { ...known, answer } : null;
    }
    const seenIn = this.sightings.seenIn(itemId) ?? (isVersion(fallback) ? versionKey(fallback) : undefined);
    const gone = await goneWithEdit(this.server, answer, itemId, seenIn, this.sightings.newestVersion);
    this.found.set(itemId, gone);
    return gone;
  }

  /**
   * The same for a window a player asked for: the item and the version it held the item in are
   * read from the request (`itemId`, `queueVersion`).
   */
  afterAsked(answer: Answer): Promise<Gone | null> {
    const query = URL.canParse(answer.exchange.url) ? new URL(answer.exchange.url).searchParams : null;
    return this.after(answer, query?.get('itemId') ?? undefined, query?.get('queueVersion') ?? undefined);
  }
}

/** What a case says of a question an edit made moot (`notJudged`): not failed, not passed. */
export function goneSaid(gone: Gone, notJudged = 'not judged'): string {
  const asked = gone.movedFrom ? 'asked three times, the last two agreeing' : 'asked twice';
  return `${requestLine(gone.answer)} answered 404, rightly: ${gone.itemId} is no longer in the queue, which changed from ${JSON.stringify(gone.seenIn)} (the newest version it was seen in) to ${JSON.stringify(gone.now)} (${requestLine(gone.polled)}, ${asked}) while the run went on (platform.md §7.1: 404 for an itemId the queue does not have); ${notJudged}`;
}
