/**
 * A wrong `Authorization` is 401 (docs/contract/platform.md §5.7): a made-up token of the same
 * scheme on each GET the player makes, and none at all on one. Only meaningful when the run was
 * given credentials the server took: a server that needs none has nothing to refuse, and one
 * that refused the run's own proves nothing by refusing a wrong one. 403 fails like any other
 * code: it is the platform's code for a request refused for another reason (a stream limit), and
 * a player does not read it as "get a new token" (docs/contract/console.md §8).
 */
import { Findings, skip, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { RULE } from '../rules.js';
import { is2xx, outcomeOf, requestLine, type Answer, type Credentials } from '../server.js';

export const wrongAuthorization: ConformanceCase = {
  id: 'auth.wrong-token',
  rule: RULE.auth,
  title: 'A wrong Authorization is answered 401',
  needs: ['item-window.first'],
  async run({ server, madeUp }: CaseContext): Promise<Verdict> {
    const given = server.authorization;
    if (!given)
      return skip(
        'the run was given no Authorization and the server answered without one: there is no token to get wrong',
      );
    const scheme = /^(\S+)\s+\S/.exec(given)?.[1] ?? 'Bearer';
    const wrong: Credentials = { authorization: `${scheme} ${madeUp.make('wrong')}` };
    const none: Credentials = { authorization: null };
    const tries: [string, Answer][] = [
      ['a made-up token', await server.context(wrong)],
      [
        'a made-up token',
        await server.itemWindow({ reason: 'load', previousWindowSize: 0, upcomingWindowSize: 1 }, wrong),
      ],
      ['a made-up token', await server.version(wrong)],
      [
        'no Authorization',
        await server.itemWindow({ reason: 'load', previousWindowSize: 0, upcomingWindowSize: 1 }, none),
      ],
    ];
    const findings = new Findings();
    for (const [what, answer] of tries) {
      const asked = `${requestLine(answer)} with ${what}`;
      if (answer.status === 401) continue;
      if (is2xx(answer)) findings.fail(`${asked}: expected 401, got ${answer.status}: the server took it`);
      else findings.fail(`${asked}: expected 401, got ${outcomeOf(answer)}`);
    }
    return findings.verdict(`${tries.length} requests with a made-up token or none: 401 each`);
  },
};
