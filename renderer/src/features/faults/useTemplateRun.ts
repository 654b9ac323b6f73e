/**
 * A scenario template run in one click (the templates, the best cause-and-effect view,
 * sat below the fold). What a template needs is found or made: a queue of a dozen tracks or more
 * (one of 20 sample tracks is created when none is), and the first group's player. The template
 * is saved under a fixed id (`template-<id>`), so running it again replaces it rather than piling
 * up copies, and it stays in Scenarios to edit or to run from CI.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScenarioReport } from '@engine-api/scenario-types';
import { useApi } from '../../api/context';
import { scenarioKeys } from '../../queries/scenarios';
import { queueKeys } from '../../queries/queues';
import type { ScenarioTemplate, TemplateTarget } from './templates';

/** The templates expect this many tracks at least (a skip and a window past the first). */
export const TEMPLATE_MIN_TRACKS = 12;
export const TEMPLATE_QUEUE_NAME = 'Template runs';

export function templateScenarioId(template: Pick<ScenarioTemplate, 'id'>): string {
  return `template-${template.id}`;
}

export function useTemplateRun() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (template: ScenarioTemplate): Promise<ScenarioReport> => {
      const target = await findTarget();
      const draft = { ...template.build(target), id: templateScenarioId(template) };
      const saved = await api.call('scenarios.save', draft);
      return api.call('scenarios.run', { id: saved.id });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: scenarioKeys.list });
      void queryClient.invalidateQueries({ queryKey: queueKeys.list() });
    },
  });

  async function findTarget(): Promise<TemplateTarget> {
    const [queues, state] = await Promise.all([api.call('queues.list', {}), api.call('state.get', {})]);
    const group = state.groups.find((g) => state.players.some((p) => p.id === g.coordinatorId));
    if (!group) throw new Error('No player to run it on: add one in the Player area.');
    let queue = queues.find((q) => q.itemCount >= TEMPLATE_MIN_TRACKS);
    if (!queue) {
      const created = await api.call('queues.create', { name: TEMPLATE_QUEUE_NAME });
      await api.call('queues.items.generate', { id: created.id, count: 20 });
      queue = created;
    }
    return {
      queueId: queue.id,
      httpAuthorization: queue.httpAuthorization,
      groupId: group.id,
      playerId: group.coordinatorId,
    };
  }
}
