// Which engine area may import which (main/engine/<area>/), lowest layer first: the table that
// eslint.config.js turns into an import rule per area, and that main/engine/layers.test.ts checks
// against every resolved import and for cycles. A new arrow here is a design decision: keep it acyclic.

/**
 * Each unit of the engine with the units it may import (its own files always). A unit is an area
 * folder, `traffic/log` (the traffic log's storage engine, a layer under the rest of traffic/), or
 * a file at the engine's root. Taken from how the code imports once the cross-area cycles were
 * gone; `index.ts` (createEngine, the composition root) wires everything and only tests and test
 * support import it.
 */
export const ENGINE_LAYERS = {
  api: [],
  security: [],
  'log.ts': [],
  store: ['api'],
  events: ['api'],
  http: ['api'],
  journal: ['api'],
  'warnings.ts': ['api', 'log.ts'],
  clock: ['api', 'store'],
  household: ['api', 'store'],
  'traffic/log': ['api', 'http', 'store'],
  'cloud-queue': ['api', 'http', 'security', 'store'],
  player: ['api', 'clock', 'cloud-queue', 'events', 'household', 'http', 'store', 'warnings.ts'],
  'event-delivery': ['api', 'clock', 'events', 'household', 'http', 'player', 'security', 'store', 'traffic/log'],
  faults: ['api', 'clock', 'cloud-queue', 'event-delivery', 'events', 'http', 'player', 'store'],
  traffic: ['api', 'clock', 'events', 'faults', 'http', 'player', 'security', 'store', 'traffic/log', 'warnings.ts'],
  control: ['api', 'event-delivery', 'household', 'http', 'player', 'store'],
  login: ['api', 'clock', 'control', 'event-delivery', 'events', 'household', 'http', 'security', 'store'],
  admin: ['api', 'events', 'http', 'security'],
  console: ['admin', 'api', 'http', 'traffic'],
  conformance: ['api', 'clock', 'cloud-queue', 'events', 'faults', 'player', 'store', 'traffic'],
  fleet: ['api', 'clock', 'cloud-queue', 'conformance', 'faults', 'http', 'player'],
  scenarios: ['api', 'clock', 'events', 'faults', 'player', 'store', 'traffic', 'traffic/log'],
  bundles: ['api', 'clock', 'cloud-queue', 'faults', 'journal', 'player', 'store', 'traffic', 'traffic/log'],
};
ENGINE_LAYERS['index.ts'] = Object.keys(ENGINE_LAYERS);

/** Why a unit's imports are what they are, where the table alone does not say. */
export const LAYER_REASONS = {
  store:
    'The store serves the engine’s areas and imports none of them: a caller hands it what it needs (see TrafficLogAttachment in store/store.ts).',
  'traffic/log':
    'The traffic log is a storage engine under the traffic area: it may import the API types, the store’s database helpers and http/, never a domain area (the recorder and capture use it, not the reverse).',
  'event-delivery':
    'Event delivery sits under faults/ and traffic/: createEngine hands it a transport already wrapped in failure injection, and a recorder.',
};

/**
 * Test support: helpers that tests share, next to what they test. Production code never imports
 * them (they start engines, fake servers and walls); they may import anything, `index.ts` included.
 */
export const TEST_SUPPORT = [
  'main/engine/testing/**',
  'main/engine/**/testing/**',
  'main/engine/**/testing.ts',
  'main/engine/**/testing-*.ts',
];
