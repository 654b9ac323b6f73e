/**
 * A 404 to a window asked around an item the run saw earlier (docs/conformance.md, "An item gone
 * with an edit"). platform.md §7.1 has a server answer 404 for an itemId its queue does not have,
 * and a queue edited while the check runs may lose an item the suite learnt before the edit: the
 * 404 is then the server's right, and a case that failed it blamed a valid server (audit: 118 of
 * 744 runs with removals). It is right only when the queue did change: GET /version, asked right
 * after the 404, names another version than the newest the item was seen in. A 404 for an item of
 * the version the server still names is the defect it always was.
 */
import { isVersion, versionOf } from './version-answer.js';
import { requestLine, type Answer, type CheckedServer } from './server.js';
import { idOf, type WindowView } from './window-view.js';

/**
 * Ids whose newest version is kept: a walk reaches 20,000, a play of a long queue goes on. Past
 * it, ids not seen before are not kept (a 404 for one is judged as before), ids kept go on being
 * updated.
 */
export const SIGHTED_IDS = 100_000;

/** The newest queueVersion each item id was seen in, over every window of the run. */
export class ItemSightings {
  private readonly versions = new Map<string, string>();
  /** The last version added, so that an id's entry shares its string rather than each window's copy. */
  private latest = '';

  add(view: WindowView): void {
    const version = view.queueVersion;
    if (!isVersion(version)) return;
    if (version !== this.latest) this.latest = version;
    for (const item of view.items) {
      const id = idOf(item);
      if (id === null) continue;
      if (this.versions.has(id) || this.versions.size < SIGHTED_IDS) this.versions.set(id, this.latest);
    }
  }

  /** The newest version a window held `itemId` in; undefined when none did (or it was past SIGHTED_IDS). */
  seenIn(itemId: string): string | undefined {
    return this.versions.get(itemId);
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
  /** GET /version's answer. */
  polled: Answer;
}

/**
 * Whether `answer`, a 404 to a window asked around `itemId`, is right because the queue changed
 * since `seenIn`: asks GET /version once. Null for any other answer, for an item seen in no
 * version, and when /version names the version the item was seen in (or names none).
 */
export async function goneWithEdit(
  server: CheckedServer,
  answer: Answer,
  itemId: string | undefined,
  seenIn: unknown,
): Promise<Gone | null> {
  if (answer.status !== 404 || answer.exchange.fault || itemId === undefined || !isVersion(seenIn)) return null;
  const polled = await server.version();
  const now = versionOf(polled);
  if (!isVersion(now) || now === seenIn) return null;
  return { itemId, answer, seenIn, now, polled };
}

/** A case's 404s judged by where the run last saw each item: each item's /version asked once. */
export class GoneItems {
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
    if (answer.status !== 404 || itemId === undefined) return null;
    const known = this.found.get(itemId);
    if (known) return { ...known, answer };
    // Asked again only while nothing was found: a queue edited since may have lost it now.
    const gone = await goneWithEdit(this.server, answer, itemId, this.sightings.seenIn(itemId) ?? fallback);
    if (gone) this.found.set(itemId, gone);
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
  return `${requestLine(gone.answer)} answered 404, rightly: ${gone.itemId} is no longer in the queue, which changed from ${JSON.stringify(gone.seenIn)} (the newest version it was seen in) to ${JSON.stringify(gone.now)} (${requestLine(gone.polled)}) while the run went on (platform.md §7.1: 404 for an itemId the queue does not have); ${notJudged}`;
}
