/**
 * A wrong `Authorization` is 401 (docs/contract/platform.md §5.7: the header goes with every call):
 * a made-up token of the same scheme, and none at all, on each of the four calls a player makes:
 * `GET /itemWindow` with every reason (with an `itemId` where a player sends one, and around an
 * item no queue has), `POST /timePlayed` with a valid `update` and a valid `final` report of an
 * item of the queue. Only meaningful when the run was given credentials the server took: a server
 * that needs none has nothing to refuse, and one that refused the run's own (or did not answer it)
 * proves nothing by refusing a wrong one, so the case first asks for the context with the run's
 * own, and goes on only once that was taken. It builds
 * on no other case: a server whose windows fail another rule still has its doors judged. 403
 * fails like any other code: it is the platform's code for a request refused for another reason
 * (a stream limit), and a player does not read it as "get a new token" (docs/contract/console.md
 * §8).
 */
import { Findings, skip, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { RULE } from '../rules.js';
import { is2xx, outcomeOf, requestLine, type Answer, type Credentials } from '../server.js';
import { reasonsFor, WITHOUT_ITEM } from './reasons.js';
import { playableItem, reportOf } from './time-played.js';

/** Asks one after another (a server's log reads in order, and no burst is sent to a server being judged). */
async function inTurn<T>(each: readonly T[], ask: (one: T) => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const one of each) answers.push(await ask(one));
  return answers;
}

export const wrongAuthorization: ConformanceCase = {
  id: 'auth.wrong-token',
  rule: RULE.auth,
  title: 'A wrong or missing Authorization is answered 401 on every call',
  uses: ['item-window.first'],
  async run({ server, madeUp, facts }: CaseContext): Promise<Verdict> {
    const given = server.authorization;
    if (!given)
      return skip(
        'the run was given no Authorization and the server answered without one: there is no token to get wrong',
      );
    // Taken, or nothing here proves anything: a wrong one refused by a server that refused the
    // run's own too (or answered it 503, or not at all) says nothing of how it reads a token.
    const own = await server.context();
    if (!is2xx(own))
      return skip(
        `${requestLine(own)} with the run's own Authorization got ${outcomeOf(own)}: a wrong one refused proves nothing (see context)`,
        [own],
      );
    // The same of /version: a server with no /version, or one always busy there, refuses a wrong
    // token there as it refuses the run's own, which the `version` case fails once (outsider F8).
    const ownVersion = await server.version();
    const versionTaken = is2xx(ownVersion);
    const scheme = /^(\S+)\s+\S/.exec(given)?.[1] ?? 'Bearer';
    const played = playableItem(facts.firstWindow?.items ?? []);
    const firstId = facts.firstWindow?.ids?.[0] ?? null;
    // The version a player holds goes with every window it asks but a load's: a server whose cache
    // keyed on the query answered any token when it came (audit Z2), and none was asked with it.
    // The newest the run has seen, as a player holds it: the first may be stale after an edit, and
    // a server that reads the query first would answer 409 to it (review).
    const first = facts.firstWindow?.queueVersion;
    const held = facts.sightings.newestQueueVersion ?? first;
    const version = typeof held === 'string' && held !== '' ? held : undefined;
    const findings = new Findings();
    const answers: Answer[] = [];
    for (const [what, as] of [
      ['a made-up token', { authorization: `${scheme} ${madeUp.make('wrong')}` }],
      ['no Authorization', { authorization: null }],
    ] as [string, Credentials][]) {
      const tries = [
        await server.context(as),
        // Every reason, with an itemId where a player sends one: a reason often has a handler of
        // its own (a skip's, a pause's), and one that checked no token served any queue's items to
        // anyone; only load and skipToItem were asked, and a server open on the others passed (audit).
        ...(await inTurn(
          // Those a player sends with an itemId only when one is known: asked without, a server that
          // reads the query before the token answers 400, and "expected 401" failed it (review). With
          // no Authorization too, every reason: a handler that checks the token only when one came
          // (`if (auth && auth !== token)`) refuses every made-up one and serves anyone without,
          // and asked without on load and skipToItem only, one such on the other reasons passed
          // (outside audit of 7 December 2026). A slow server's run spends a few seconds more.
          reasonsFor(server.baseUrl).filter((reason) => WITHOUT_ITEM.has(reason) || firstId !== null),
          (reason) =>
            server.itemWindow(
              {
                reason,
                ...(WITHOUT_ITEM.has(reason) ? {} : { itemId: firstId! }),
                previousWindowSize: 0,
                upcomingWindowSize: 1,
                ...(reason !== 'load' && version !== undefined ? { queueVersion: version } : {}),
              },
              as,
            ),
        )),
        // And a skip to an item without it, as an app's own skipToItem may come: both shapes.
        ...(version !== undefined && firstId !== null
          ? [
              await server.itemWindow(
                { reason: 'skipToItem', itemId: firstId, previousWindowSize: 0, upcomingWindowSize: 1 },
                as,
              ),
            ]
          : []),
        // And around an item no queue has: a server that looks the item up before the token
        // answers 404 to anyone, telling a stranger which items exist, and a player that sent a
        // stale token would take that 404 for its item gone and empty its queue (outsider x11).
        await server.itemWindow(
          {
            reason: 'skipToItem',
            itemId: madeUp.make('no-such-item'),
            previousWindowSize: 0,
            upcomingWindowSize: 1,
            ...(version !== undefined ? { queueVersion: version } : {}),
          },
          as,
        ),
        ...(versionTaken ? [await server.version(as)] : []),
        // Both kinds of report: a final one often goes another way (it ends a track's accounting).
        ...(played
          ? await inTurn(['update', 'final'] as const, (type) =>
              server.timePlayed([reportOf(played, facts, type, server.baseUrl)], as),
            )
          : []),
      ];
      for (const answer of tries) {
        answers.push(answer);
        const asked = `${requestLine(answer)} with ${what}`;
        if (answer.status === 401) continue;
        if (is2xx(answer)) findings.fail(`${asked}: expected 401, got ${answer.status}: the server took it`);
        else findings.fail(`${asked}: expected 401, got ${outcomeOf(answer)}`);
      }
    }
    if (!versionTaken)
      findings.note(
        `GET /version not judged: with the run's own Authorization it got ${outcomeOf(ownVersion)}, and a wrong one refused proves nothing (see version)`,
      );
    if (!played) findings.note('POST /timePlayed not asked: no item of a first window to report on');
    if (firstId === null)
      findings.note('only the reasons sent without an itemId asked: the first window named no item');
    return findings.verdict(
      `${answers.length} requests, each call with a made-up token and with none: 401 each`,
      findings.failed ? answers.filter((answer) => answer.status !== 401) : answers,
    );
  },
};
