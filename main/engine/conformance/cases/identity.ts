/**
 * An item id names one track for the life of the queue (docs/contract/console.md §4: ids are never
 * reused): across every window the run fetched, the same id carries the same track. A reused id
 * made a real player keep the track it had cached under that id and seek slowly through the
 * wrong audio. A track is told by its name and its media URL without the query (signed URLs are
 * refreshed, platform.md §2.4 `play`); a field a window leaves out is not compared.
 */
import { Findings, skip, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { idOf } from '../facts.js';
import { RULE } from '../rules.js';
import { requestLine, type Answer } from '../server.js';

interface Seen {
  name: string | undefined;
  media: string | undefined;
  answer: Answer;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const stableIdentity: ConformanceCase = {
  id: 'item-window.stable-identity',
  rule: RULE.shapes,
  title: 'An item id never names two different tracks',
  // An id that stands twice in the queue names two tracks too: item-window.ids says so, once.
  needs: ['item-window.first', 'item-window.ids'],
  async run({ facts }: CaseContext): Promise<Verdict> {
    const seen = new Map<string, Seen>();
    const findings = new Findings();
    const evidence = new Set<Answer>();
    let items = 0;
    for (const view of facts.windows) {
      for (const item of view.items) {
        const id = idOf(item);
        const track = isObject(item) && isObject(item.track) ? item.track : null;
        if (id === null || !track) continue;
        items++;
        const now: Seen = {
          name: typeof track.name === 'string' ? track.name : undefined,
          media: mediaOf(track.mediaUrl),
          answer: view.answer,
        };
        const before = seen.get(id);
        if (!before) {
          seen.set(id, now);
          continue;
        }
        const differs =
          (before.name !== undefined && now.name !== undefined && before.name !== now.name) ||
          (before.media !== undefined && now.media !== undefined && before.media !== now.media);
        if (!differs) continue;
        findings.fail(
          `expected ${id} to name one track, got ${describe(before)} in ${requestLine(before.answer)} and ${describe(now)} in ${requestLine(now.answer)}`,
        );
        evidence.add(before.answer).add(now.answer);
        // Said once an id.
        seen.set(id, { name: undefined, media: undefined, answer: now.answer });
      }
    }
    if (items === 0)
      return skip(
        'no window held an item with a track: nothing to compare',
        facts.windows.map((view) => view.answer),
      );
    return findings.verdict(
      `${seen.size.toLocaleString('en-US')} ids in ${facts.windows.length} windows, each naming one track wherever it appeared`,
      evidence.size ? [...evidence] : facts.windows.map((view) => view.answer),
    );
  },
};

/** The media URL without its query and fragment (a signed URL's signature changes), or undefined. */
function mediaOf(url: unknown): string | undefined {
  if (typeof url !== 'string' || url === '') return undefined;
  return URL.canParse(url) ? `${new URL(url).origin}${new URL(url).pathname}` : url;
}

function describe(seen: Seen): string {
  const name = seen.name !== undefined ? JSON.stringify(seen.name) : 'a track';
  return seen.media !== undefined ? `${name} (${seen.media})` : name;
}
