/**
 * The queue's version (docs/contract/platform.md §4.3): every window carries the `queueVersion`
 * the player reports and polls against, and GET /version answers the same one while nothing
 * changes (a changed version makes the player fetch a window again). The suite changes nothing,
 * so two versions in one run mean someone edited the queue meanwhile, or the server does not
 * keep its version: a warning that says which could not be told apart, unless /version keeps
 * disagreeing with a fresh window.
 */
import { fail, Findings, pass, skip, warn, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { isWindow, windowOf, type WindowView } from '../facts.js';
import { RULE } from '../rules.js';
import { isVersion, versionOf } from '../version-answer.js';
import { requestLine } from '../server.js';

export const windowQueueVersion: ConformanceCase = {
  id: 'item-window.queue-version',
  rule: RULE.requests,
  title: 'Every window carries a queueVersion, the same while nothing changes',
  needs: ['item-window.first'],
  async run({ facts }: CaseContext): Promise<Verdict> {
    const findings = new Findings();
    const missing = facts.windows.filter((view) => !isVersion(view.queueVersion));
    for (const view of missing) {
      findings.fail(
        `${requestLine(view.answer)}: queueVersion is ${JSON.stringify(view.queueVersion) ?? 'missing'}, expected a non-empty string (the player reports it and compares it with GET /version)`,
      );
    }
    const versions = [...new Set(facts.windows.map((view) => view.queueVersion).filter(isVersion))];
    if (versions.length > 1) {
      const changed = facts.windows.find((view) => isVersion(view.queueVersion) && view.queueVersion !== versions[0])!;
      // Many versions in one run is a server that does not keep its version, more than an edit.
      const times = versions.length > 2 ? `, ${versions.length} versions in ${facts.windows.length} windows` : '';
      findings.warn(
        `queueVersion changed during the run, from ${JSON.stringify(versions[0])} to ${JSON.stringify(changed.queueVersion)} (${requestLine(changed.answer)})${times}: right if the queue was edited meanwhile, wrong if nothing changed it`,
      );
    }
    const evidence = missing.length ? missing.map((view) => view.answer) : facts.windows.map((view) => view.answer);
    return findings.verdict(
      // Said of what all the windows share, never of a version some did not carry (audit).
      versions.length > 1
        ? `${facts.windows.length} windows, each with a queueVersion`
        : `${facts.windows.length} windows, each with queueVersion ${JSON.stringify(versions[0])}`,
      evidence,
    );
  },
};

export const versionAgrees: ConformanceCase = {
  id: 'version',
  rule: RULE.requests,
  title: 'GET /version answers the queueVersion the windows carry',
  needs: ['item-window.first'],
  async run(context: CaseContext): Promise<Verdict> {
    const verdict = await versionVerdict(context);
    // What comes after is held to the same rule, the play-through's polls included (version.throughout).
    const { facts } = context;
    facts.trail.versions.watch(facts.windows.findLast((view) => isVersion(view.queueVersion))?.queueVersion);
    return verdict;
  },
};

/** The version case's verdict: /version against the last window, asked again both when they differ. */
async function versionVerdict({ server, facts }: CaseContext): Promise<Verdict> {
  const latest = facts.windows.findLast((view) => isVersion(view.queueVersion));
  if (!latest) return skip('no window carried a queueVersion to compare with (see item-window.queue-version)');
  const first = await server.version();
  const said = versionOf(first);
  if (typeof said !== 'string') return fail(said.problem, [latest.answer, first]);
  if (said === latest.queueVersion)
    return pass(`${requestLine(first)}: queueVersion ${JSON.stringify(said)}, as the windows say`, [
      latest.answer,
      first,
    ]);
  // The queue may have changed since that window: ask both again, back to back.
  const again = await server.itemWindow({ reason: 'refresh', previousWindowSize: 0, upcomingWindowSize: 0 });
  const view = windowOf(again);
  const second = await server.version();
  const saidAgain = versionOf(second);
  const windowVersion = isWindow(view) ? view.queueVersion : undefined;
  const evidence = [latest.answer, first, again, second];
  if (typeof saidAgain === 'string' && isVersion(windowVersion) && saidAgain === windowVersion) {
    return warn(
      `${requestLine(first)} said ${JSON.stringify(said)} where the last window said ${JSON.stringify(latest.queueVersion)}; asked again, both say ${JSON.stringify(saidAgain)}: right if the queue was edited meanwhile`,
      evidence,
    );
  }
  return fail(
    `GET /version says ${JSON.stringify(said)}, then ${describe(saidAgain)}, while the windows say ${JSON.stringify(latest.queueVersion)}, then ${describeWindow(view)}: asked back to back, milliseconds apart, they must agree (the player fetches a window again whenever /version differs)`,
    evidence,
  );
}

function describe(said: string | { problem: string }): string {
  return typeof said === 'string' ? JSON.stringify(said) : said.problem;
}

function describeWindow(view: WindowView | { problem: string }): string {
  return isWindow(view) ? JSON.stringify(view.queueVersion) : view.problem;
}
