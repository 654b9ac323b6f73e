/**
 * What the rest of the run heard, held to what its earlier cases settled (audit: a server wrong
 * only outside the windows a case judged passed). Two rules the suite checks early hold for the
 * whole run, the play-through's thousands of answers included, so they are tallied as the answers
 * come, and the cases at the end of the suite (`cases/throughout.ts`) say what was found:
 *
 * - the flags of every window the walk and `item-window.reasons` did not judge themselves, once
 *   the walk has found where the queue ends (the first window, `size-limits`', the player's), and
 *   of any version by `stuckWindow`;
 * - `GET /version` against the windows after the `version` case: a poll that announced another
 *   version, followed by a window that still carried the old one, is /version disagreeing with the
 *   windows while nothing changed; windows whose version moves are said (an edit is the server's).
 */
import { CASE_HEADER, type Answer } from './server.js';
import { stuckWindow } from './stuck-window.js';
import { isVersion, versionOf } from './version-answer.js';
import type { WindowView } from './window-view.js';

/** Problems kept to show (each with its answer); the rest are counted. */
const KEPT = 5;
/** Windows held until the walk says where the queue ends (the cases before it fetch a few dozen). */
const PENDING = 200;
/** Cases that judge their own windows' flags. */
const JUDGE_THEIR_OWN = new Set(['item-window.queue-ends', 'item-window.reasons']);

export interface Finding {
  message: string;
  answer: Answer;
}

/** The flags of windows outside the walk. */
export class EndsTrail {
  /** Windows judged, and of them the play-through's. */
  judged = 0;
  played = 0;
  /** The last windows judged: a pass's evidence. */
  readonly recent: Answer[] = [];
  readonly problems: Finding[] = [];
  /** Problems found in all (more than `problems` keeps). */
  found = 0;
  private pending: WindowView[] = [];
  private judge: ((view: WindowView) => string[]) | null = null;
  private version: unknown;

  /** Whether the walk found an end to judge by. */
  get judging(): boolean {
    return this.judge !== null;
  }

  /** The walk found where the queue ends: `judge` says what is wrong with a window's flags, for windows of `version`. */
  judgeBy(judge: (view: WindowView) => string[], version: unknown): void {
    this.judge = judge;
    this.version = version;
    for (const view of this.pending) this.add(view);
    this.pending = [];
  }

  add(view: WindowView): void {
    const by = view.answer.exchange.requestHeaders[CASE_HEADER];
    if (by !== undefined && JUDGE_THEIR_OWN.has(by)) return;
    // Wrong whatever the version and wherever the queue ends: judged on every window at once.
    // Not kept whole: which ends it holds cannot be read (the case that asked fails it).
    if (view.itemsLeftOut) return;
    const stuck = stuckWindow(view);
    if (stuck.length > 0) return this.problem(stuck, view);
    if (!this.judge) {
      if (this.pending.length < PENDING) this.pending.push(view);
      return;
    }
    // An edit may have moved the ends: only windows of the version the walk saw are judged.
    if (view.items.length === 0 || view.queueVersion !== this.version) return;
    this.judged++;
    if (by === 'play-through') this.played++;
    if (this.recent.push(view.answer) > KEPT) this.recent.shift();
    const problems = this.judge(view);
    if (problems.length > 0) this.problem(problems, view);
  }

  private problem(problems: string[], view: WindowView): void {
    this.found++;
    if (this.problems.length < KEPT) this.problems.push({ message: problems.join('; '), answer: view.answer });
  }
}

/** /version and the windows' queueVersion after the version case. */
export class VersionTrail {
  /** Set once the version case has run: only what comes after it is tallied. */
  watching = false;
  /** The version the windows carried when it began: null when none had one. */
  initial: string | null = null;
  /** The last polls and windows tallied: a pass's evidence. */
  readonly recent: Answer[] = [];
  polls = 0;
  windows = 0;
  /** The first changes of the windows' version (each from the window before), and how many there were in all. */
  readonly changes: { from: string; to: string; answer: Answer }[] = [];
  changed = 0;
  /** Polls that announced another version, answered by a window that still carried the one before. */
  readonly disagreements: { poll: Answer; said: string; window: Answer; carried: string }[] = [];
  disagreed = 0;
  private lastWindow: string | null = null;
  private announced: { poll: Answer; said: string; before: string } | null = null;

  /** From now on (after the version case), with the version the windows carried last. */
  watch(lastVersion: unknown): void {
    this.watching = true;
    if (isVersion(lastVersion)) this.lastWindow = this.initial = lastVersion;
  }

  poll(answer: Answer): void {
    if (!this.watching) return;
    const said = versionOf(answer);
    if (typeof said !== 'string') return;
    this.polls++;
    if (this.recent.push(answer) > KEPT) this.recent.shift();
    this.announced =
      this.lastWindow !== null && said !== this.lastWindow ? { poll: answer, said, before: this.lastWindow } : null;
  }

  window(view: WindowView): void {
    if (!this.watching || !isVersion(view.queueVersion)) return;
    const carried = view.queueVersion;
    this.windows++;
    if (this.recent.push(view.answer) > KEPT) this.recent.shift();
    // Counted and the first few kept, never each version: a server may send a new one every window.
    const before = this.lastWindow;
    if (before !== null && carried !== before) {
      this.changed++;
      if (this.changes.length < KEPT) this.changes.push({ from: before, to: carried, answer: view.answer });
    }
    const announced = this.announced;
    this.announced = null;
    this.lastWindow = carried;
    if (announced && carried === announced.before) {
      this.disagreed++;
      if (this.disagreements.length < KEPT)
        this.disagreements.push({ poll: announced.poll, said: announced.said, window: view.answer, carried });
    }
  }
}

/** What the run tallies for the cases at the end of the suite. */
export interface Trail {
  ends: EndsTrail;
  versions: VersionTrail;
}

export function newTrail(): Trail {
  return { ends: new EndsTrail(), versions: new VersionTrail() };
}
