/**
 * The route tree: the frame (AppShell) around one route per area, each with the schema of what
 * its address keeps (search.ts). Any other path goes to the area its first segment names, else to
 * the first area, so an old or mistyped link still opens the console.
 */
import { createRootRoute, createRoute, redirect } from '@tanstack/react-router';
import { ApiPage } from '../features/api/ApiPage';
import { ConformancePage } from '../features/conformance/ConformancePage';
import { FaultsPage } from '../features/faults/FaultsPage';
import { FleetPage } from '../features/fleet/FleetPage';
import { OAuthPage } from '../features/oauth/OAuthPage';
import { PlayerPage } from '../features/player/PlayerPage';
import { QueuesPage } from '../features/queues/QueuesPage';
import { TrafficPage } from '../features/traffic/TrafficPage';
import { AppShell } from '../layout/AppShell';
import { AREAS, areaOfPath } from './areas';
import { namesNoArea, useUnknownRoute } from './unknown-route';
import {
  apiSearch,
  conformanceSearch,
  faultsSearch,
  fleetSearch,
  oauthSearch,
  playerSearch,
  queuesSearch,
  trafficSearch,
} from './search';

const AREA_PATHS = new Set<string>(AREAS.map((a) => `/${a.id}`));

const rootRoute = createRootRoute({
  component: AppShell,
  beforeLoad: ({ location }) => {
    if (AREA_PATHS.has(location.pathname)) return;
    const shown = `/${areaOfPath(location.pathname)}` as const;
    if (namesNoArea(location.pathname)) useUnknownRoute.getState().note(location.pathname, shown);
    throw redirect({ to: shown, replace: true });
  },
});

const oauthRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/oauth',
  validateSearch: oauthSearch,
  component: OAuthPage,
});
const queuesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/queues',
  validateSearch: queuesSearch,
  component: QueuesPage,
});
const playerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/player',
  validateSearch: playerSearch,
  component: PlayerPage,
});
const trafficRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/traffic',
  validateSearch: trafficSearch,
  component: TrafficPage,
});
const faultsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/faults',
  validateSearch: faultsSearch,
  component: FaultsPage,
});
const apiRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/api',
  validateSearch: apiSearch,
  component: ApiPage,
});
const conformanceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/conformance',
  validateSearch: conformanceSearch,
  component: ConformancePage,
});

const fleetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/fleet',
  validateSearch: fleetSearch,
  component: FleetPage,
});

export const routeTree = rootRoute.addChildren([
  oauthRoute,
  queuesRoute,
  playerRoute,
  trafficRoute,
  faultsRoute,
  apiRoute,
  conformanceRoute,
  fleetRoute,
]);
