/**
 * Keeps the tab title on the place shown: the area, and in it the player, queue, entry, flow,
 * scenario or run the address names (or, where the area shows one unasked, the one it shows).
 * Each area's names come from the queries its page already reads, so the title costs no request.
 */
import { useSearch } from '@tanstack/react-router';
import { useEffect, type ComponentType } from 'react';
import { useConformanceRuns } from '../queries/conformance';
import { groupCoordinators, useEngineState } from '../queries/engine-state';
import { useFlows } from '../queries/oauth';
import { useQueueList } from '../queries/queues';
import { useScenarios } from '../queries/scenarios';
import { serverLabel } from '../features/conformance/summary';
import { useCurrentArea } from './area-memory';
import type { AreaId } from './areas';
import { shortRequestId, tabTitle } from './title';

function useTitle(area: AreaId, detail?: string | null): null {
  const title = tabTitle(area, detail);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}

function OAuthTitle() {
  const { flow } = useSearch({ strict: false });
  const flows = useFlows().data;
  const shown = flow ? flows?.find((f) => f.id === flow) : undefined;
  return useTitle('oauth', flow ? `flow ${shown?.integrationName ?? shown?.clientId ?? flow}` : null);
}

function QueuesTitle() {
  const { queue } = useSearch({ strict: false });
  const queues = useQueueList().data;
  return useTitle('queues', (queues?.find((q) => q.id === queue) ?? queues?.[0])?.name);
}

function PlayerTitle() {
  const { player } = useSearch({ strict: false });
  const coordinators = groupCoordinators(useEngineState().data);
  const shown = coordinators.find((c) => c.player && c.player.id === player) ?? coordinators.find((c) => c.player);
  return useTitle('player', shown?.group.name ?? player);
}

function TrafficTitle() {
  const { entry, request } = useSearch({ strict: false });
  return useTitle('traffic', entry ? `entry ${entry}` : request ? `request ${shortRequestId(request)}` : null);
}

function FaultsTitle() {
  const { scenario } = useSearch({ strict: false });
  const scenarios = useScenarios().data;
  return useTitle('faults', scenario ? (scenarios?.find((s) => s.id === scenario)?.name ?? scenario) : null);
}

function ApiTitle() {
  return useTitle('api');
}

function ConformanceTitle() {
  const { run } = useSearch({ strict: false });
  const runs = useConformanceRuns().data;
  const shown = runs?.find((r) => r.id === run) ?? (run ? undefined : runs?.[0]);
  return useTitle('conformance', shown ? serverLabel(shown.baseUrl) : run);
}

function FleetTitle() {
  const { fleet } = useSearch({ strict: false });
  return useTitle('fleet', fleet);
}

const TITLES: Record<AreaId, ComponentType> = {
  oauth: OAuthTitle,
  queues: QueuesTitle,
  player: PlayerTitle,
  traffic: TrafficTitle,
  faults: FaultsTitle,
  api: ApiTitle,
  conformance: ConformanceTitle,
  fleet: FleetTitle,
};

export function TabTitle() {
  const Title = TITLES[useCurrentArea()];
  return <Title />;
}
