/**
 * An item id names one track for the life of the queue (docs/contract/console.md §4: ids are never
 * reused): across every window the run fetched, the same id carries the same track; across an
 * edit, a new name under the same media path is said, not failed (a name corrected, or an id
 * given to another track at a URL made from the id: only the server knows). A reused id made a
 * real player keep the track it had cached under that id and seek slowly through the wrong audio.
 * The run tells tracks apart as the windows come (`identities.ts`); this case says what it found.
 */
import { Findings, skip, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { RULE } from '../rules.js';

export const stableIdentity: ConformanceCase = {
  id: 'item-window.stable-identity',
  rule: RULE.shapes,
  title: 'An item id never names two different tracks',
  // An id that stands twice in the queue names two tracks too: item-window.ids says so, once.
  needs: ['item-window.first', 'item-window.ids'],
  // The cases whose windows it compares: a replay of it alone compared none (audit).
  uses: [
    'item-window.centred',
    'item-window.queue-ends',
    'item-window.size-limits',
    'item-window.reasons',
    'play-through',
  ],
  async run({ facts }: CaseContext): Promise<Verdict> {
    const { identities } = facts;
    const windows = facts.windows.map((view) => view.answer);
    if (identities.items === 0) return skip('no window held an item with a track: nothing to compare', windows);
    const findings = new Findings();
    for (const conflict of identities.conflicts) findings.fail(conflict);
    // One file on two hosts, or under a path signed anew, is right; two files under one path in
    // two buckets, or of one name in two folders, are not: said, not judged.
    for (const change of identities.placeChanges) findings.warn(change);
    for (const rename of identities.renames) findings.warn(rename);
    if (identities.renamed > identities.renames.length)
      findings.warn(
        `${(identities.renamed - identities.renames.length).toLocaleString('en-US')} more ids were renamed across an edit under the same media path`,
      );
    if (identities.placeChanged > identities.placeChanges.length)
      findings.warn(
        `${(identities.placeChanged - identities.placeChanges.length).toLocaleString('en-US')} more ids came with their media from two hosts or paths`,
      );
    return findings.verdict(
      `${identities.seen.size.toLocaleString('en-US')} ids in ${identities.windows} windows, each naming one track wherever it appeared`,
      identities.evidence.size ? [...identities.evidence] : windows,
    );
  },
};
