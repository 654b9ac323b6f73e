/**
 * What a run keeps of an answer once the case that asked has read it (docs/contract/console.md §8:
 * the check process stays under 300 MB whatever the server sends). A run keeps every answer for
 * the cases that judge them all (timing, Retry-After, ids naming one track) and for evidence, and
 * a play to the end of a long queue of fat windows gets thousands of them: kept whole, a valid
 * 20,000-item queue took the process past 3 GB. So a body is kept as far as evidence shows it
 * (its first MAX_EVIDENCE_BODY_BYTES, with its size), its parsed JSON only when the body is that
 * small, and a window's items only as the fields later cases read, long strings as a fingerprint
 * that is equal exactly when they are.
 */
import { createHash } from 'node:crypto';
import { MAX_EVIDENCE_BODY_BYTES } from '../api/conformance-types.js';
import { isObject } from '../api/is-object.js';
import type { WindowView } from './facts.js';
import { mediaParts } from '../player/contract-check.js';
import type { Answer } from './server.js';

const kept = new WeakMap<Answer, Answer>();

/** The answer as a run keeps it; the same object for an answer small enough to keep whole. */
export function retained(answer: Answer): Answer {
  // Characters, not bytes: cheap, and a body of more characters than the cap is over it in bytes too.
  if (answer.text.length <= MAX_EVIDENCE_BODY_BYTES) return answer;
  let slim = kept.get(answer);
  if (slim) return slim;
  // Characters again: the first MAX_EVIDENCE_BODY_BYTES of them hold at least that many bytes, all evidence shows.
  const text = detached(answer.text.slice(0, MAX_EVIDENCE_BODY_BYTES));
  slim = {
    ...answer,
    text,
    json: undefined,
    bodyBytes: answer.bodyBytes ?? Buffer.byteLength(answer.text),
    exchange: { ...answer.exchange, responseBody: text },
  };
  kept.set(answer, slim);
  return slim;
}

const keptViews = new WeakMap<Answer, WindowView>();

/**
 * A window as the run keeps it: its answer retained, each item only as the cases after read it.
 * Once a window: the runner and the walk both keep the walk's windows.
 */
export function retainedView(view: WindowView): WindowView {
  let kept = keptViews.get(view.answer);
  if (!kept) {
    const leftOut = view.items.length - MAX_KEPT_ITEMS;
    kept = {
      ...view,
      answer: retained(view.answer),
      items: view.items.slice(0, MAX_KEPT_ITEMS).map(itemAsRead),
      ids: view.ids && view.ids.slice(0, MAX_KEPT_ITEMS),
      ...(leftOut > 0 ? { itemsLeftOut: leftOut } : {}),
    };
    keptViews.set(view.answer, kept);
  }
  return kept;
}

/**
 * The items a kept window holds at most: five times the largest window any case asks for (the
 * walk's 100). A server that ignored the sizes and sent its whole 20,000-item queue in every window
 * (under the 1 MB cap: short items) filled the check's heap in 45 answers and killed it with no
 * report (audit); such a window is the asking case's failure, and is kept only as far as evidence
 * and the cases that list items read it.
 */
export const MAX_KEPT_ITEMS = 500;

/**
 * `{id, track: {name, mediaUrl, durationMillis}}`: what `item-window.items` and
 * `item-window.stable-identity` look at. The id stays as it came (the walk's ids are compared with
 * it); any other value that is not a short string or a number goes to its fingerprint.
 */
function itemAsRead(item: unknown): unknown {
  if (!isObject(item)) return small(item);
  const track = item.track;
  return {
    id: typeof item.id === 'string' ? item.id : small(item.id),
    track: isObject(track)
      ? { name: small(track.name), mediaUrl: mediaAsRead(track.mediaUrl), durationMillis: small(track.durationMillis) }
      : small(track),
  };
}

/**
 * A long signed URL without its query, which `stable-identity` drops anyway (a signed URL may be
 * refreshed), and a long path as its fingerprint after its origin: the fingerprint of the path
 * alone, so that one path from two hosts stays one path as `stable-identity` compares it, and its
 * file after it, so that a path signed anew still ends in the file it named.
 */
function mediaAsRead(url: unknown): unknown {
  if (typeof url !== 'string' || url.length <= LONGEST_KEPT) return small(url);
  const { origin, path } = mediaParts(url)!;
  if (path.length <= LONGEST_KEPT) return `${origin}${path}`;
  return `${origin}${small(path) as string}/${small(path.slice(path.lastIndexOf('/') + 1)) as string}`;
}

/** Strings past this many characters are kept as a fingerprint. */
const LONGEST_KEPT = 256;

function small(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length <= LONGEST_KEPT
      ? value
      : `${detached(value.slice(0, 120))}… (${value.length} characters, sha1 ${sha1(value)})`;
  if (Array.isArray(value)) return value.length === 0 ? value : [`(an array of ${value.length})`];
  if (isObject(value)) return Object.keys(value).length === 0 ? value : { '(an object)': sha1(JSON.stringify(value)) };
  return value;
}

/**
 * A copy of `part` that holds none of the string it was cut from: V8 makes a slice of a long string
 * a view into it, and a 4 KB view keeps a 1 MB body alive.
 */
function detached(part: string): string {
  return Buffer.from(part, 'utf8').toString('utf8');
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 16);
}
