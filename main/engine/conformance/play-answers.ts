/**
 * The answers of a play, as the listener (`play.ts`) and its verdict read them: the newest few,
 * the last refusal and the last window (what a failure names), the first that never came (a
 * failure at once), and how many of each endpoint (the rhythm a verdict tells). A play to the end of a
 * long queue gets tens of thousands of answers; keeping them all broke the check's 300 MB bound
 * (docs/contract/console.md §8).
 */
import type { CloudQueueEndpoint } from '../player/contract-check.js';
import { is2xx, type Answer } from './server.js';
import { isObject } from '../api/is-object.js';
import { idOf, isWindow, windowOf, type WindowView } from './facts.js';
import { mayGoBackFrom, withheldBefore } from './stuck-window.js';

/** Answers kept: the newest, for evidence and for a violation's exchange (told right after its answer). */
export const PLAY_KEPT = 200;

/** Ends said kept (by last item): a queue edited while it plays moves its end now and then. */
const ENDS_KEPT = 16;

export class PlayAnswers {
  /** The newest PLAY_KEPT answers, oldest first. */
  readonly recent: Answer[] = [];
  /** The last answer, the last that was not 2xx, and the last 2xx window. */
  last: Answer | undefined;
  lastRefused: Answer | undefined;
  lastWindow: Answer | undefined;
  /** The last 2xx window that said includesEndOfQueue true, by its last item: where it said the queue ends. */
  private readonly endsSaid = new Map<string, Answer>();
  private readonly counts = new Map<CloudQueueEndpoint, number>();
  private readonly byRequestId = new Map<string, Answer>();
  /** The first request that got no answer: it ends the play. */
  unanswered: Answer | undefined;
  /** A window that held nothing before its item yet said the queue goes on back, until the listener reads it. */
  private withheld: { answer: Answer; message: string } | undefined;
  /** The queue's `canSkipBack`, as the play's last context said it (the platform's default: true). */
  private queueCanSkipBack = true;

  add(answer: Answer): void {
    if (this.recent.length === PLAY_KEPT) {
      const dropped = this.recent.shift()!;
      this.byRequestId.delete(dropped.exchange.requestId);
    }
    this.recent.push(answer);
    this.byRequestId.set(answer.exchange.requestId, answer);
    this.last = answer;
    const { endpoint } = answer.exchange;
    this.counts.set(endpoint, (this.counts.get(endpoint) ?? 0) + 1);
    if (!is2xx(answer)) this.lastRefused = answer;
    else if (endpoint === 'context') this.heardContext(answer);
    else if (endpoint === 'itemWindow') {
      this.lastWindow = answer;
      const view = windowOf(answer);
      if (isWindow(view)) {
        if (view.includesEndOfQueue === true) this.saidEnd(view);
        if (!this.withheld) {
          const message = withheldBefore(view);
          if (message && mayGoBackFrom(view.items[0], this.queueCanSkipBack)) this.withheld = { answer, message };
        }
      }
    }
    // A fault rule's timeout is the console's, not the server's.
    if (answer.status === undefined && !answer.exchange.fault) this.unanswered ??= answer;
  }

  private heardContext(answer: Answer): void {
    const policies = isObject(answer.json) ? answer.json.playbackPolicies : undefined;
    if (isObject(policies)) this.queueCanSkipBack = policies.canSkipBack !== false;
  }

  /** The window that withheld the items before its item since the last call, and what is wrong with it. */
  takeWithheld(): { answer: Answer; message: string } | undefined {
    const withheld = this.withheld;
    this.withheld = undefined;
    return withheld;
  }

  /** The last window that said the queue ends at `itemId`, while it is among the newest ends said. */
  endSaidAt(itemId: string): Answer | undefined {
    return this.endsSaid.get(itemId);
  }

  private saidEnd(view: WindowView): void {
    const last = idOf(view.items.at(-1));
    if (last === null) return;
    // Newest last, and few: a queue's end moves only with an edit.
    this.endsSaid.delete(last);
    this.endsSaid.set(last, view.answer);
    if (this.endsSaid.size > ENDS_KEPT) this.endsSaid.delete(this.endsSaid.keys().next().value!);
  }

  /** The answer to the request with this id, while it is among the newest. */
  of(requestId: string): Answer | undefined {
    return this.byRequestId.get(requestId);
  }

  count(endpoint: CloudQueueEndpoint): number {
    return this.counts.get(endpoint) ?? 0;
  }
}
