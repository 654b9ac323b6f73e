/**
 * Journals the command table: every command that changes something is wrapped so that it is
 * recorded once it ends, at the engine time it began. One place for every sender of the table
 * (admin API, IPC, CLI, the guided demo): nothing the user did at the console is left out.
 */
import { MAX_ITEMS_IN_BUNDLE_QUEUE } from '../api/bundle-types.js';
import type { CommandHandlers } from '../api/runner.js';
import { commandSpecs, type CommandName } from '../api/commands.js';
import { toErrorBody } from '../api/errors.js';
import type { FaultRule } from '../api/fault-types.js';
import type { QueueView } from '../api/queue-types.js';
import type { Journal } from './journal.js';
import type { JournaledCommand, QueueSnapshot } from './types.js';

/**
 * Commands that change nothing a replay depends on, or whose effect is journaled elsewhere:
 * `control.send` reaches the control listener, which journals the call whoever sent it. The UI's
 * own preferences (the theme, the demo closed) were journaled, and a theme switched mid-span cut
 * every player's checks from then on as a call a scenario cannot replay (audit).
 */
const NOT_JOURNALED = [
  'preferences.',
  'control.',
  'conformance.',
  'fleets.',
  'traffic.',
  'integrations.',
  'oauth.',
  'events.',
  'tokens.',
  'grants.',
  'settings.',
  'bundles.export',
  'scenarios.save',
  'scenarios.delete',
];
/** Player commands are journaled refused too: a refused skip may have changed the player on its way. */
const JOURNALED_WHEN_REFUSED = new Set<string>(['players.act', 'players.trigger']);
/** A queue larger than this is not copied before an edit (the bundle then says the edit cannot replay). */
const MAX_SNAPSHOT_ITEMS = 10_000;
/** An input larger than this (items added by the thousand) is not kept. */
const MAX_KEPT_ITEMS = 10_000;
/** A call that made more items than a bundle carries of a queue is not kept (ids only: a few MB at most). */
const MAX_KEPT_MADE = MAX_ITEMS_IN_BUNDLE_QUEUE;

export interface JournalCommandDeps {
  faults: { list(): FaultRule[] };
  queues: { head(id: string): { itemCount: number } | undefined; get(id: string): QueueView };
}

export function isJournaled(name: CommandName): boolean {
  const method = (commandSpecs[name] as { http?: { method: string } }).http?.method;
  if (!method || method === 'GET') return false;
  return !NOT_JOURNALED.some((prefix) => name === prefix || (prefix.endsWith('.') && name.startsWith(prefix)));
}

/** The handlers, the journaled ones wrapped. */
export function journaledHandlers(
  handlers: CommandHandlers,
  journal: Journal,
  deps: JournalCommandDeps,
): CommandHandlers {
  const wrapped = { ...handlers } as Record<CommandName, (input: unknown) => unknown>;
  for (const name of Object.keys(handlers) as CommandName[]) {
    if (!isJournaled(name)) continue;
    const handler = handlers[name] as (input: unknown) => unknown;
    wrapped[name] = async (input: unknown) => {
      const faultsBefore = name.startsWith('faults.') ? deps.faults.list() : undefined;
      const queueBefore = name.startsWith('queues.') && name !== 'queues.create' ? snapshotOf(deps, input) : undefined;
      const kept = keptInput(name, input);
      const base = {
        name,
        input: kept.input,
        ...(kept.omitted ? { omitted: kept.omitted } : {}),
        ...(queueBefore ? { queueBefore } : {}),
      };
      // What is known as it begins: a call still waiting at an export is replayed from this.
      const ticket = journal.begin(name, { kind: 'command', ...base, ok: true });
      try {
        const output = await handler(input);
        const result = resultOf(output);
        const entry: Omit<JournaledCommand, 'seq' | 'at'> = { kind: 'command', ...base, ok: true, result };
        // A bundle names each item a replayed call makes, up to what it carries of a queue; a call
        // that made more (a million samples) is kept as not replayable, not as a million ids.
        if ((result.itemIds?.length ?? 0) > MAX_KEPT_MADE) {
          entry.omitted = `${result.itemIds!.length.toLocaleString('en-US')} items made`;
          entry.input = null;
          delete result.itemIds;
        }
        if (faultsBefore) {
          entry.rules = deps.faults.list();
          const after = new Set(entry.rules.map((rule) => rule.id));
          const removed = faultsBefore.filter((rule) => !after.has(rule.id));
          if (removed.length) entry.removed = removed;
        }
        journal.recordCommand(ticket, entry);
        return output;
      } catch (error) {
        if (JOURNALED_WHEN_REFUSED.has(name))
          journal.recordCommand(ticket, { kind: 'command', ...base, ok: false, error: toErrorBody(error).code });
        else journal.end(ticket);
        throw error;
      }
    };
  }
  return wrapped as CommandHandlers;
}

function keptInput(name: string, input: unknown): { input: unknown; omitted?: string } {
  if (name === 'bundles.import') return { input: null, omitted: 'a whole bundle' };
  if (name === 'queues.create') return { input: null, omitted: 'the queue is carried as it was' };
  const items = (input as { items?: unknown[] } | undefined)?.items;
  if (Array.isArray(items) && items.length > MAX_KEPT_ITEMS) return { input: null, omitted: `${items.length} items` };
  return { input: structuredClone(input) };
}

function resultOf(output: unknown): NonNullable<JournaledCommand['result']> {
  if (typeof output !== 'object' || output === null) return {};
  const record = output as Record<string, unknown>;
  const result: NonNullable<JournaledCommand['result']> = {};
  if (typeof record.ruleId === 'string') result.ruleId = record.ruleId;
  else if (typeof record.id === 'string' && typeof record.target === 'string') result.ruleId = record.id;
  if (Array.isArray(record.itemIds))
    result.itemIds = record.itemIds.filter((id): id is string => typeof id === 'string');
  if (typeof record.playerId === 'string') result.playerId = record.playerId;
  return result;
}

/** The queue a queue command names, as it is before the command, if small enough to copy. */
function snapshotOf(deps: JournalCommandDeps, input: unknown): QueueSnapshot | undefined {
  const id = (input as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') return undefined;
  const head = deps.queues.head(id);
  if (!head || head.itemCount > MAX_SNAPSHOT_ITEMS) return undefined;
  const { name, container, playbackPolicies, reports, items } = deps.queues.get(id);
  return structuredClone({ id, name, container, playbackPolicies, reports, items });
}
