/**
 * Command handlers of failure injection, and `players.trigger`: sending a player's request now is
 * trigger.ts's job, so its row sits here beside `faults.trigger` (player/ never imports faults/).
 */
import { EngineError } from '../api/errors.js';
import type { CommandHandlers } from '../api/runner.js';
import { FAULT_PRESETS } from './presets.js';
import type { FaultRegistry } from './registry.js';
import { sendTrigger, triggerRule, type TriggerDeps } from './trigger.js';

type Names =
  | 'faults.list'
  | 'faults.move'
  | 'faults.trigger'
  | 'faults.add'
  | 'faults.remove'
  | 'faults.clear'
  | 'faults.presets'
  | 'faults.applyPreset'
  | 'players.trigger';

export function faultCommandHandlers(faults: FaultRegistry, triggers: TriggerDeps): Pick<CommandHandlers, Names> {
  return {
    'faults.list': () => faults.views(),
    'faults.move': ({ id, toIndex }) => {
      if (!faults.move(id, toIndex)) throw new EngineError('not_found', `no fault rule ${id}`);
      return faults.views();
    },
    'faults.trigger': ({ id, playerId }) => {
      const rule = faults.get(id);
      if (!rule) throw new EngineError('not_found', `no fault rule ${id}`);
      return triggerRule(triggers, rule, playerId);
    },
    'faults.add': (input) => faults.add(input),
    'faults.remove': ({ id }) => {
      if (!faults.remove(id)) throw new EngineError('not_found', `no fault rule ${id}`);
      return { removed: true };
    },
    'faults.clear': () => ({ removed: faults.clear() }),
    'faults.presets': () => FAULT_PRESETS,
    'faults.applyPreset': ({ id, target }) => {
      const preset = FAULT_PRESETS.find((p) => p.id === id);
      if (!preset) throw new EngineError('not_found', `no preset ${id}`);
      return faults.add({ ...preset.rule, target: target ?? preset.rule.target });
    },
    'players.trigger': ({ id, request }) => {
      const player = triggers.players.forPlayer(id);
      if (!player) throw new EngineError('not_found', `no player ${id}`);
      return sendTrigger(player, request);
    },
  };
}
