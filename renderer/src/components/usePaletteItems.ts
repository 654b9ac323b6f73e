/**
 * What the command palette offers, grouped by area: the places to go (an area, a player, a queue,
 * an OAuth flow, a traffic request by entry id or X-Request-Id) and every button of the areas by
 * its words (the table in stores/palette-actions.ts, which the areas' features answer), plus the
 * console's own (a fault preset, a scenario, the clock, the theme, the guided demo), done through
 * the same commands their buttons send. Each shows its key when it has one.
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
import { AREAS, areaLabel, type AreaId } from '../router/areas';
import { shortRequestId } from '../router/title';
import { areaShortcut, keyLabels, shortcutHandledBy, shortcutOf } from '../shortcuts/shortcuts';
import { useClockStore } from '../stores/clock';
import { useDemoStore } from '../stores/demo';
import { askPaletteAction, PALETTE_ACTIONS, type PaletteActionId } from '../stores/palette-actions';
import { THEMES, useThemeStore } from '../stores/theme';
import { useOverlays } from './overlays';

export interface PaletteItem {
  /** Unique in the palette; what the typed text is matched against, with `keywords`. */
  value: string;
  label: string;
  /** Shown beside the label, dimmed (an id, a status). */
  detail?: string;
  keywords?: readonly string[];
  /** The keys that do it too, as written on screen (`3`, `D`). */
  keys?: string[];
  /** Made from the typed text itself (an entry id): always shown, first. */
  always?: boolean;
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
      always: true,
      run: () => go.entry(Number(entry[1])),
    });
  const requestId = NAMED_REQUEST.exec(text)?.[1] ?? (UUID_LIKE.test(text) ? text : null);
  if (requestId) {
    items.push({
      value: `request id ${text}`,
      label: `Show request ${shortRequestId(requestId)}`,
      detail: 'its exchanges in the traffic log',
      always: true,
      run: () => go.request(requestId),
    });
  }
  return items;
}

/** The theme switch's choices, by the names it gives them. */
const THEME_LABELS = { system: 'System theme', light: 'Light theme', dark: 'Dark theme' } as const;

export function usePaletteItems(query: string): PaletteGroup[] {
  const api = useApi();
  const navigate = useNavigate();
  const openArea = useOpenArea();
  const setClock = useClockStore((s) => s.setClock);
  const theme = useThemeStore((s) => s.theme);
  const coordinators = groupCoordinators(useEngineState().data);
  const queues = useQueueList().data ?? [];
  const flows = useFlows().data ?? [];
  const presets = useFaultPresets().data ?? [];
  const scenarios = useScenarios().data ?? [];
  const applyPreset = useApplyPreset();
  const runScenario = useRunScenario();

  const byArea: Record<AreaId, PaletteItem[]> = {
    oauth: flows.map((f) => ({
      value: `flow ${f.id}`,
      label: `Flow of ${f.integrationName ?? f.clientId ?? 'an unknown client'}`,
      detail: `${f.status.replace('_', ' ')} · ${f.id}`,
      run: () => void navigate({ to: '/oauth', search: { flow: f.id } }),
    })),
    queues: queues.map((q) => ({
      value: `queue ${q.id}`,
      label: q.name,
      detail: `${q.itemCount} items`,
      keywords: [q.id],
      run: () => void navigate({ to: '/queues', search: { queue: q.id } }),
    })),
    player: coordinators.flatMap(({ group, player }) =>
      player
        ? [
            {
              value: `player ${player.id}`,
              label: group.name,
              detail: player.playbackState.replace('PLAYBACK_STATE_', ''),
              keywords: [player.id],
              run: () => void navigate({ to: '/player', search: { player: player.id } }),
            },
          ]
        : [],
    ),
    traffic: [],
    faults: [
      ...presets.map((p) => ({
        value: `preset ${p.id}`,
        label: `Inject ${p.label}`,
        keywords: ['fault', p.id],
        run: () => applyPreset.mutateAsync({ id: p.id, target: p.rule.target }),
      })),
      ...scenarios.map((s) => ({
        value: `scenario ${s.id}`,
        label: `Run scenario ${s.name}`,
        detail: s.id,
        // A run takes the clock for as long as it lasts: the Faults area shows the scenario, and its report when it ends.
        run: () => {
          runScenario.mutate(s.id);
          void navigate({ to: '/faults', search: { scenario: s.id } });
        },
      })),
    ],
    api: [],
    conformance: [],
    fleet: [],
  };
  const demoKey = shortcutHandledBy('the guided demo');
  const groups: PaletteGroup[] = [
    {
      heading: 'Requests',
      items: requestItems(query, {
        entry: (id) => void navigate({ to: '/traffic', search: { entry: id } }),
        request: (id) => void navigate({ to: '/traffic', search: { request: id } }),
      }),
    },
    {
      heading: 'Go to',
      items: AREAS.map((a) => ({
        value: `area ${a.id}`,
        label: `Go to ${a.label}`,
        keys: keyLabels(areaShortcut(a.id)),
        run: () => openArea(a.id),
      })),
    },
    // Each area's buttons first, then its things (players, queues, presets…).
    ...AREAS.map((a) => ({ heading: areaLabel(a.id), items: [...actionItems(a.id, openArea), ...byArea[a.id]] })),
    {
      heading: 'Console',
      items: [
        {
          value: 'demo guided checklist',
          label: 'Show the guided demo',
          keywords: ['presenter', 'walkthrough', 'tour'],
          keys: demoKey ? keyLabels(demoKey) : undefined,
          run: () => useDemoStore.getState().show(),
        },
        {
          value: 'shortcut sheet',
          label: 'Keyboard shortcuts',
          keywords: ['keys', 'help'],
          keys: keyLabels(shortcutOf('sheet')),
          // After the palette closed: one dialog at a time.
          run: () => void queueMicrotask(() => useOverlays.getState().show('sheet')),
        },
        ...THEMES.map((t) => ({
          value: `theme ${t}`,
          label: THEME_LABELS[t],
          detail: t === theme ? 'current' : undefined,
          keywords: ['theme', 'colour', 'color', 'appearance', 'mode'],
          run: () => useThemeStore.getState().setTheme(t),
        })),
        ...CLOCK_ITEMS.map((c) => ({
          value: `clock ${c.label}`,
          label: c.label,
          keywords: ['time', 'speed'],
          run: () => api.call('clock.set', c.input).then((clock: ClockState) => setClock(clock)),
        })),
      ],
    },
  ];
  return groups.filter((g) => g.items.length > 0);
}

/** An area's buttons, from the table its feature answers: chosen, the area opens and does it. */
function actionItems(area: AreaId, openArea: (area: AreaId) => void): PaletteItem[] {
  return (Object.keys(PALETTE_ACTIONS) as PaletteActionId[])
    .filter((id) => PALETTE_ACTIONS[id].area === area)
    .map((id) => ({
      value: `action ${id}`,
      label: PALETTE_ACTIONS[id].label,
      keywords: PALETTE_ACTIONS[id].keywords,
      run: () => {
        openArea(area);
        return askPaletteAction(id);
      },
    }));
}
