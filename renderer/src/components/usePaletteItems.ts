/**
 * What the command palette offers: the places to go (an area, a player, a queue, an OAuth flow, a
 * traffic request by entry id or X-Request-Id) and the things to do (inject a fault preset, run a
 * saved scenario, set the engine clock), read from the queries the areas use and done through the
 * same commands their buttons send.
 */
import { useNavigate } from '@tanstack/react-router';
import type { ClockState } from '@engine-api/types';
import { useApi } from '../api/context';
import { groupCoordinators, useEngineState } from '../queries/engine-state';
import { useApplyPreset, useFaultPresets } from '../queries/faults';
import { useFlows } from '../queries/oauth';
import { useQueueList } from '../queries/queues';
import { useRunScenario, useScenarios } from '../queries/scenarios';
import { useOpenArea } from '../router/area-memory';
import { AREAS } from '../router/areas';
import { shortRequestId } from '../router/title';
import { useClockStore } from '../stores/clock';
import { useDemoStore } from '../stores/demo';

export interface PaletteItem {
  /** Unique in the palette; what the typed text is matched against, with `keywords`. */
  value: string;
  label: string;
  /** Shown beside the label, dimmed (an id, a status). */
  detail?: string;
  keywords?: string[];
  /** Done when chosen; the palette closes once it settles, or shows why it failed. */
  run(): void | Promise<unknown>;
}

export interface PaletteGroup {
  heading: string;
  items: PaletteItem[];
}

/** The clock steps offered (the status bar has more; these are the everyday ones). */
const CLOCK_ITEMS = [
  { label: 'Stop the clock', input: { speed: 0 } },
  { label: 'Clock at 1× (real time)', input: { speed: 1 } },
  { label: 'Clock at 60× (a minute a second)', input: { speed: 60 } },
  { label: 'Advance the clock 1 min (+1m)', input: { advanceMs: 60_000 } },
  { label: 'Advance the clock 1 h (+1h)', input: { advanceMs: 3_600_000 } },
] as const;

/** `12` or `#12`: a traffic entry id. */
const ENTRY_ID = /^#?(\d{1,15})$/;
/** What an X-Request-Id the players send looks like: a UUID, or its start (8 hex digits at least). */
const UUID_LIKE = /^[0-9a-f]{8}[0-9a-f-]{0,192}$/i;
/** `request <id>`: any id, for a client that makes its own. */
const NAMED_REQUEST = /^req(?:uest)?[\s:]+(\S{1,200})$/i;

/** The requests the typed text could name: an entry id, an X-Request-Id, or both (`12345678`). */
export function requestItems(query: string, go: { entry(id: number): void; request(id: string): void }): PaletteItem[] {
  const text = query.trim();
  const items: PaletteItem[] = [];
  const entry = ENTRY_ID.exec(text);
  if (entry)
    items.push({
      value: `request entry ${text}`,
      label: `Open traffic entry #${Number(entry[1])}`,
      run: () => go.entry(Number(entry[1])),
    });
  const requestId = NAMED_REQUEST.exec(text)?.[1] ?? (UUID_LIKE.test(text) ? text : null);
  if (requestId) {
    items.push({
      value: `request id ${text}`,
      label: `Show request ${shortRequestId(requestId)}`,
      detail: 'its exchanges in the traffic log',
      run: () => go.request(requestId),
    });
  }
  return items;
}

export function usePaletteItems(query: string): PaletteGroup[] {
  const api = useApi();
  const navigate = useNavigate();
  const openArea = useOpenArea();
  const setClock = useClockStore((s) => s.setClock);
  const coordinators = groupCoordinators(useEngineState().data);
  const queues = useQueueList().data ?? [];
  const flows = useFlows().data ?? [];
  const presets = useFaultPresets().data ?? [];
  const scenarios = useScenarios().data ?? [];
  const applyPreset = useApplyPreset();
  const runScenario = useRunScenario();

  const groups: PaletteGroup[] = [
    {
      heading: 'Requests',
      items: requestItems(query, {
        entry: (id) => void navigate({ to: '/traffic', search: { entry: id } }),
        request: (id) => void navigate({ to: '/traffic', search: { request: id } }),
      }),
    },
    {
      heading: 'Areas',
      items: AREAS.map((a) => ({
        value: `area ${a.id} ${a.label}`,
        label: `Go to ${a.label}`,
        detail: a.key,
        run: () => openArea(a.id),
      })),
    },
    {
      heading: 'Players',
      items: coordinators.flatMap(({ group, player }) =>
        player
          ? [
              {
                value: `player ${player.id} ${group.name}`,
                label: group.name,
                detail: player.playbackState.replace('PLAYBACK_STATE_', ''),
                run: () => void navigate({ to: '/player', search: { player: player.id } }),
              },
            ]
          : [],
      ),
    },
    {
      heading: 'Queues',
      items: queues.map((q) => ({
        value: `queue ${q.id} ${q.name}`,
        label: q.name,
        detail: `${q.itemCount} items`,
        run: () => void navigate({ to: '/queues', search: { queue: q.id } }),
      })),
    },
    {
      heading: 'OAuth flows',
      items: flows.map((f) => ({
        value: `flow ${f.id} ${f.integrationName ?? f.clientId ?? ''}`,
        label: `Flow of ${f.integrationName ?? f.clientId ?? 'an unknown client'}`,
        detail: `${f.status.replace('_', ' ')} · ${f.id}`,
        run: () => void navigate({ to: '/oauth', search: { flow: f.id } }),
      })),
    },
    {
      heading: 'Fault presets',
      items: presets.map((p) => ({
        value: `preset ${p.id} ${p.label}`,
        label: `Inject ${p.label}`,
        keywords: ['fault'],
        run: () => applyPreset.mutateAsync({ id: p.id, target: p.rule.target }),
      })),
    },
    {
      heading: 'Scenarios',
      items: scenarios.map((s) => ({
        value: `scenario ${s.id} ${s.name}`,
        label: `Run scenario ${s.name}`,
        detail: s.id,
        // A run takes the clock for as long as it lasts: the Faults area shows the scenario, and its report when it ends.
        run: () => {
          runScenario.mutate(s.id);
          void navigate({ to: '/faults', search: { scenario: s.id } });
        },
      })),
    },
    {
      heading: 'Clock',
      items: CLOCK_ITEMS.map((c) => ({
        value: `clock ${c.label}`,
        label: c.label,
        keywords: ['time', 'speed'],
        run: () => api.call('clock.set', c.input).then((clock: ClockState) => setClock(clock)),
      })),
    },
    {
      heading: 'Demo',
      items: [
        {
          value: 'demo guided checklist',
          label: 'Show the guided demo',
          detail: 'D',
          keywords: ['presenter', 'walkthrough'],
          run: () => useDemoStore.getState().show(),
        },
      ],
    },
  ];
  return groups.filter((g) => g.items.length > 0);
}
