/**
 * GET /context answers with a context (docs/contract/platform.md §4.3): the player sends it first
 * on a load and takes its report intervals and playback policies from it. The platform leaves the
 * payload open; the player's own check (`player/contract-check.ts`) says what it cannot use.
 */
import { checkContext } from '../../player/contract-check.js';
import { fail, Findings, type ConformanceCase } from '../case.js';
import { RULE } from '../rules.js';
import { is2xx, outcomeOf, requestLine, type Answer } from '../server.js';

const CONTEXT_FIELDS = ['contextVersion', 'queueVersion', 'container', 'reports', 'playbackPolicies'];

export const contextAnswers: ConformanceCase = {
  id: 'context',
  rule: RULE.requests,
  title: 'GET /context answers with a context',
  async run({ server, facts }) {
    const answer = await server.context();
    const asked = requestLine(answer);
    if (!is2xx(answer))
      return fail(`${asked}: expected 200 with a context, got ${outcomeOf(answer)}${unauthorizedHint(answer)}`);
    if (answer.json === undefined)
      return fail(
        `${asked}: expected a JSON context, got ${answer.status} with ${answer.text.trim() ? 'a body that is not JSON' : 'an empty body'}`,
      );
    const checked = checkContext(answer.json);
    const findings = new Findings();
    for (const violation of checked.violations) {
      if (violation.severity === 'malformed')
        findings.fail(`${asked}: ${violation.message}, so the player cannot use this context`);
      else findings.warn(`${asked}: ${violation.message}`);
    }
    if (checked.value) {
      facts.skipsAsked = policiesAskBeforeSkips(checked.value);
      facts.canSkipBack = checked.value.playbackPolicies?.canSkipBack !== false;
      if (typeof checked.value.contextVersion === 'string') facts.contextVersion = checked.value.contextVersion;
      const present = CONTEXT_FIELDS.filter((field) => field in (checked.value as object));
      if (present.length === 0)
        findings.warn(
          `${asked}: the context has none of ${CONTEXT_FIELDS.join(', ')}; the player assumes every default`,
        );
      return findings.verdict(`${asked}: ${answer.status} with a context (${present.join(', ') || 'empty'})`);
    }
    return findings.verdict(`${asked}: ${answer.status}`);
  },
};

/** Whether the context's policies have the player ask the server before a skip (and so let it refuse one). */
function policiesAskBeforeSkips(context: object): boolean {
  const policies = (context as { playbackPolicies?: unknown }).playbackPolicies;
  if (typeof policies !== 'object' || policies === null) return false;
  const { limitedSkips, notifyUserIntent } = policies as Record<string, unknown>;
  return limitedSkips === true || notifyUserIntent === true;
}

/**
 * A 401 to the run's own credentials is worth saying: every later case will meet it too. One that
 * came from another origin the request was redirected to came to a request without them: the
 * player, as browsers and curl, sends no Authorization across origins (audit: the advice pointed
 * at the Authorization).
 */
export function unauthorizedHint(answer: Answer): string {
  if (answer.status !== 401) return '';
  const { url, redirectedTo } = answer.exchange;
  if (redirectedTo && URL.canParse(url) && URL.canParse(redirectedTo)) {
    const [from, to] = [new URL(url).origin, new URL(redirectedTo).origin];
    if (from !== to)
      return `; it came from ${to}, where ${from} redirected the request, and the player sends no Authorization to another origin: give the run a base URL on ${to}, or answer without redirecting`;
  }
  // A run given none was told to check what it was given (audit Y9).
  if (answer.exchange.requestHeaders.authorization === undefined)
    return '; the run sent no Authorization: give the one the server expects (check --authorization V, or the Authorization field)';
  return '; check the Authorization given to the run (the player sends it verbatim)';
}
