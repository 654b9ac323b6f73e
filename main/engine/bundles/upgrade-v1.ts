/**
 * Bundles of format version 1 (0.1.0) still import and run. Their scenario was derived from the
 * traffic, so calls that reached no listener as a request the derivation knew (a Send now, a rule
 * removed, moved or triggered, a queue edit) are not in it, while the transitions they caused are
 * expected. Where the bundle's own HAR or notes show such a call, those expectations are dropped
 * and a note says which calls and why: a bundle never expects what it cannot cause.
 */
import type { ScenarioStep } from '../api/scenario-types.js';

/** Admin calls a version 1 scenario replays (or that change nothing a replay checks). */
const REPLAYED_BY_V1: readonly RegExp[] = [
  /^POST \/admin\/api\/queues$/,
  /^POST \/admin\/api\/control\/send$/,
  /^POST \/admin\/api\/clock$/,
  /^POST \/admin\/api\/faults$/,
  /^POST \/admin\/api\/faults\/presets\/[^/]+$/,
  /^POST \/admin\/api\/players\/[^/]+\/actions$/,
  /^POST \/admin\/api\/commands\/players\.act$/,
  /^POST \/admin\/api\/bundles\/(export|import)$/,
  /^POST \/admin\/api\/scenarios$/,
  /^DELETE \/admin\/api\/traffic$/,
  /^POST \/admin\/api\/traffic\/settings$/,
];

interface V1Bundle {
  scenario: { steps: ScenarioStep[] };
  notes?: string[];
  har?: unknown;
}

export function upgradeV1(bundle: V1Bundle): { steps: ScenarioStep[]; notes: string[] } {
  const missed = new Set<string>();
  for (const call of adminCallsOf(bundle.har))
    if (!REPLAYED_BY_V1.some((pattern) => pattern.test(call)))
      missed.add(call.replace(/\/(fault|player|queue|item)-[\w-]+/g, '/$1-…'));
  if ((bundle.notes ?? []).some((note) => note.includes('removed since')))
    missed.add('rules removed before the export');
  const expecting = bundle.scenario.steps.some((step) => step.type === 'expect' && step.transitions?.length);
  if (missed.size === 0 || !expecting) return { steps: bundle.scenario.steps, notes: [] };
  const steps = bundle.scenario.steps.flatMap((step): ScenarioStep[] => {
    if (step.type !== 'expect' || !step.transitions) return [step];
    const { transitions: _dropped, ...rest } = step;
    return rest.state !== undefined || rest.itemId !== undefined ? [rest] : [];
  });
  const shown = [...missed].slice(0, 8).join(', ');
  return {
    steps,
    notes: [
      `a version 1 bundle (written by 0.1.0) leaves out what it could not derive from the traffic (${shown}${missed.size > 8 ? `, and ${missed.size - 8} more` : ''}): the transitions it expected are not checked, since the replay cannot cause them`,
    ],
  };
}

/** `METHOD /admin/api/...` of each admin call the HAR holds that may change something. */
function adminCallsOf(har: unknown): string[] {
  const entries = (har as { log?: { entries?: unknown } } | undefined)?.log?.entries;
  if (!Array.isArray(entries)) return [];
  const calls: string[] = [];
  for (const entry of entries) {
    const request = (entry as { request?: { method?: unknown; url?: unknown } }).request;
    if (typeof request?.method !== 'string' || typeof request.url !== 'string' || request.method === 'GET') continue;
    let path: string;
    try {
      path = new URL(request.url).pathname;
    } catch {
      continue;
    }
    if (path.startsWith('/admin/api/')) calls.push(`${request.method} ${path}`);
  }
  return calls;
}
