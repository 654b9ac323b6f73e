/**
 * The values the suite makes up: an itemId no queue has (`item-window.unknown-item`) and a token
 * no server issued (`auth.wrong-token`). Each is `cqc-check-<kind>-<random>`, so a report keeps
 * it in clear (it is no secret) and a replay finds it again: `check --replay` re-sends exactly the
 * requests of the report (docs/contract/console.md §1), so the cases take the recorded value
 * instead of making a new one, and the request a replay line names is the one sent again.
 */
import { randomBytes } from 'node:crypto';
import { MADE_UP_PATTERN } from '../api/conformance-types.js';

/** What the suite makes up, and how many random bytes make each unguessable. */
const KINDS = { 'no-such-item': { bytes: 6, encoding: 'hex' }, wrong: { bytes: 16, encoding: 'base64url' } } as const;

export type MadeUpKind = keyof typeof KINDS;

const PREFIX = 'cqc-check-';

/** An Authorization carrying the suite's made-up token (`auth.wrong-token`): a report keeps it in clear. */
export const MADE_UP_TOKEN = new RegExp(`^\\S+ ${PREFIX}wrong-[\\w-]+$`);

/** A made-up value anywhere in a text: what a report's URLs and headers are searched for. */
const MADE_UP_VALUE = new RegExp(MADE_UP_PATTERN.slice(1, -1), 'g');

/** Values recalled from an earlier run: `make(kind)` gives the recalled one of that kind, else a new one. */
export class MadeUp {
  private readonly recalled: ReadonlyMap<MadeUpKind, string>;
  /** Made in this run, one of a kind. */
  private readonly made = new Map<MadeUpKind, string>();

  constructor(recalled: readonly string[] = []) {
    const byKind = new Map<MadeUpKind, string>();
    for (const value of recalled) {
      const kind = kindOf(value);
      if (kind && !byKind.has(kind)) byKind.set(kind, value);
    }
    this.recalled = byKind;
  }

  /** One value of each kind a run: the cases that make one send the same, which a replay recalls as one. */
  make(kind: MadeUpKind): string {
    const made = this.recalled.get(kind) ?? this.made.get(kind);
    if (made !== undefined) return made;
    const { bytes, encoding } = KINDS[kind];
    const value = `${PREFIX}${kind}-${randomBytes(bytes).toString(encoding)}`;
    this.made.set(kind, value);
    return value;
  }
}

function kindOf(value: string): MadeUpKind | null {
  for (const kind of Object.keys(KINDS) as MadeUpKind[])
    if (value.startsWith(`${PREFIX}${kind}-`) && value.length > `${PREFIX}${kind}-`.length) return kind;
  return null;
}

/** The made-up values in some texts (a report's URLs and request headers), each once, in order. */
export function madeUpIn(texts: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const text of texts) for (const [value] of text.matchAll(MADE_UP_VALUE)) found.add(value);
  return [...found];
}
