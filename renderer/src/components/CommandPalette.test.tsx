// @vitest-environment happy-dom
/**
 * The command palette, the `?` sheet and the frame's keys in a real router (memory history) over a
 * fake engine: what a user presses and what they then see and where they are.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
  useRouterState,
} from '@tanstack/react-router';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PALETTE_ACTIONS,
  usePaletteActions,
  usePaletteRegistry,
  type PaletteActionId,
} from '../stores/palette-actions';
import { useDemoStore } from '../stores/demo';
import { useThemeStore } from '../stores/theme';
import type { CommandName } from '@engine-api/commands';
import { Api } from '../api/client';
import { ApiProvider } from '../api/context';
import { useAreaMemory, useRememberAreas } from '../router/area-memory';
import { AREAS, type AreaId } from '../router/areas';
import { parseQuery, stringifyQuery } from '../router/query-string';
import { playerSearch, queuesSearch, trafficSearch } from '../router/search';
import { useFrameShortcuts } from '../shortcuts/useFrameShortcuts';
import { CommandPalette, PaletteButton } from './CommandPalette';
import { useOverlays } from './overlays';
import { ShortcutSheet } from './ShortcutSheet';

afterEach(() => {
  cleanup();
  act(() => useOverlays.getState().close());
  useAreaMemory.setState({ searches: {} });
  usePaletteRegistry.setState({ handlers: {}, pending: null });
  ran.length = 0;
});

/** The actions the fake areas' features ran, by id, in order. */
const ran: PaletteActionId[] = [];

const ENGINE: Partial<Record<CommandName, unknown>> = {
  'state.get': {
    groups: [
      { id: 'g-kitchen', name: 'Kitchen', coordinatorId: 'player-kitchen' },
      { id: 'g-office', name: 'Office', coordinatorId: 'player-office' },
    ],
    players: [
      { id: 'player-kitchen', playbackState: 'PLAYBACK_STATE_IDLE' },
      { id: 'player-office', playbackState: 'PLAYBACK_STATE_PLAYING' },
    ],
  },
  'queues.list': [{ id: 'q-morning', name: 'Morning mix', itemCount: 3 }],
  'oauth.flows.list': [{ id: 'flow-1', integrationName: 'Sample app', clientId: 'sample', status: 'tokens_issued' }],
  'faults.presets': [
    { id: 'storm', label: '503 storm', description: '', rule: { target: 'cloudQueue' } },
    { id: 'slow', label: 'Slow itemWindow', description: '', rule: { target: 'cloudQueue' } },
    { id: 'timeout', label: 'Timeout on every request', description: '', rule: { target: 'cloudQueue' } },
  ],
  'scenarios.list': [],
  'clock.set': { now: 1_000, speed: 0 },
};

/** The frame's parts over routes that say where they are. */
function renderConsole({ at = '/oauth', refuse = [] as CommandName[] } = {}) {
  const calls: { name: string; input: unknown }[] = [];
  const api = new Api({
    kind: 'http',
    call: async (name, input) => {
      calls.push({ name, input });
      if (refuse.includes(name)) return { ok: false, error: { code: 'conflict', message: `${name} refused` } };
      return { ok: true, value: ENGINE[name] as never };
    },
    subscribe: () => () => undefined,
  });
  const root = createRootRoute({
    component: function Frame() {
      useRememberAreas();
      useFrameShortcuts();
      return (
        <>
          <button type="button">Opener</button>
          <input aria-label="Some field" />
          <PaletteButton />
          <Outlet />
          <CommandPalette />
          <ShortcutSheet />
        </>
      );
    },
  });
  // The schemas of the areas the palette goes to with a search (the others take none).
  const SCHEMAS: Record<string, (raw: Record<string, unknown>) => object> = {
    traffic: (raw) => trafficSearch(raw),
    player: (raw) => playerSearch(raw),
    queues: (raw) => queuesSearch(raw),
  };
  const areas = AREAS.map((a) =>
    createRoute({
      getParentRoute: () => root,
      path: `/${a.id}`,
      validateSearch: SCHEMAS[a.id] ?? (() => ({})),
      component: () => (
        <>
          <Where />
          <FakeFeature area={a.id} />
        </>
      ),
    }),
  );
  const router = createRouter({
    routeTree: root.addChildren(areas),
    history: createMemoryHistory({ initialEntries: [at] }),
    parseSearch: parseQuery,
    stringifySearch: stringifyQuery,
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ApiProvider api={api}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router as never} />
      </QueryClientProvider>
    </ApiProvider>,
  );
  return { calls, user: userEvent.setup() };
}

function Where() {
  const location = useRouterState({ select: (s) => s.location });
  return <output aria-label="Where">{`${location.pathname}${location.searchStr}`}</output>;
}

/** An area's feature as the real ones are: one hook call registering what its buttons do. */
function FakeFeature({ area }: { area: AreaId }) {
  const ids = (Object.keys(PALETTE_ACTIONS) as PaletteActionId[]).filter((id) => PALETTE_ACTIONS[id].area === area);
  usePaletteActions(Object.fromEntries(ids.map((id) => [id, () => void ran.push(id)])));
  return null;
}

const where = () => screen.getByRole('status', { name: 'Where' });
const palette = () => screen.queryByRole('dialog', { name: 'Command palette' });

async function openPalette(user: ReturnType<typeof userEvent.setup>) {
  const opener = await screen.findByRole('button', { name: 'Opener' });
  opener.focus();
  await user.keyboard('{Control>}k{/Control}');
  const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
  return { opener, dialog, input: within(dialog).getByRole('combobox') };
}

describe('the command palette', () => {
  it('opens on Ctrl+K with the focus in its search field, and lists places and actions', async () => {
    const { user } = renderConsole();
    const { input, dialog } = await openPalette(user);
    expect(document.activeElement).toBe(input);
    // The players, the queues and the flows arrive from the engine.
    expect(await within(dialog).findByRole('option', { name: /Kitchen/ })).toBeTruthy();
    expect(within(dialog).getByRole('option', { name: /Morning mix/ })).toBeTruthy();
    expect(within(dialog).getByRole('option', { name: /Flow of Sample app/ })).toBeTruthy();
    expect(within(dialog).getByRole('option', { name: /Inject 503 storm/ })).toBeTruthy();
    expect(within(dialog).getByRole('option', { name: /Stop the clock/ })).toBeTruthy();
  });

  it('filters as the user types, and Enter goes to the player chosen; the dialog closes', async () => {
    const { user } = renderConsole({ at: '/traffic' });
    const { input, dialog } = await openPalette(user);
    await within(dialog).findByRole('option', { name: /Kitchen/ });
    await user.type(input, 'kitch');
    const options = within(dialog).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['KitchenIDLE']);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(where().textContent).toBe('/player?player=player-kitchen'));
    expect(palette()).toBeNull();
  });

  it('goes to a traffic entry by its id, or to a request by its X-Request-Id', async () => {
    const { user } = renderConsole();
    let { input } = await openPalette(user);
    await user.type(input, '#12');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(where().textContent).toBe('/traffic?entry=12'));

    ({ input } = await openPalette(user));
    await user.type(input, 'b8a1e1d2-5c4f-4f61');
    expect(screen.getByRole('option', { selected: true }).textContent).toMatch(/^Show request b8a1e1d2/);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(where().textContent).toBe('/traffic?request=b8a1e1d2-5c4f-4f61'));

    // A client's own id, named as one.
    ({ input } = await openPalette(user));
    await user.type(input, 'request my-app-42');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(where().textContent).toBe('/traffic?request=my-app-42'));
  });

  it('typing a digit in it types; it does not switch areas', async () => {
    const { user } = renderConsole();
    const { input } = await openPalette(user);
    await user.type(input, '4');
    expect((input as HTMLInputElement).value).toBe('4');
    expect(where().textContent).toBe('/oauth');
  });

  it('Escape closes it and gives the focus back to what had it', async () => {
    const { user } = renderConsole();
    const { opener } = await openPalette(user);
    await user.keyboard('{Escape}');
    expect(palette()).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('sets the clock through the engine and closes; a refused action stays open and says why', async () => {
    const { user, calls } = renderConsole({ refuse: ['faults.applyPreset'] });
    let { input } = await openPalette(user);
    await user.type(input, 'stop the clock');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(palette()).toBeNull());
    expect(calls).toContainEqual({ name: 'clock.set', input: { speed: 0 } });

    ({ input } = await openPalette(user));
    await user.type(input, '503 storm');
    await user.keyboard('{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Inject 503 storm: faults.applyPreset refused');
    expect(calls).toContainEqual({ name: 'faults.applyPreset', input: { id: 'storm', target: 'cloudQueue' } });
    expect(palette()).not.toBeNull();
  });

  it('opens from the status bar button too', async () => {
    const { user } = renderConsole();
    await user.click(await screen.findByRole('button', { name: /^Commands/ }));
    expect(palette()).not.toBeNull();
  });
});

describe('the command palette matches what it shows', () => {
  const selected = () => screen.getByRole('option', { selected: true });

  it('finds an item by its label as it reads, and Enter does it', async () => {
    const { user } = renderConsole();
    let { input, dialog } = await openPalette(user);
    await within(dialog).findByRole('option', { name: /Inject 503 storm/ });
    await user.type(input, 'Go to Faults');
    expect(selected().textContent).toBe('Go to Faults, key 5');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(where().textContent).toBe('/faults'));

    ({ input, dialog } = await openPalette(user));
    await within(dialog).findByRole('option', { name: /Inject 503 storm/ });
    await user.type(input, 'Inject 503');
    expect(selected().textContent).toBe('Inject 503 storm');

    await user.clear(input);
    await user.type(input, 'Show the guided demo');
    expect(selected().textContent).toBe('Show the guided demo, key D');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(palette()).toBeNull());
    expect(useDemoStore.getState().open).toBe(true);
    act(() => useDemoStore.setState({ open: false }));
  });

  it('ranks: the whole label, then its start, then a word in it, then its letters in order', async () => {
    const { user } = renderConsole();
    const { input, dialog } = await openPalette(user);
    await within(dialog).findByRole('option', { name: /Timeout on every request/ });
    await user.type(input, 'timeout');
    // The labels, without the dimmed detail beside them.
    const names = () =>
      within(dialog)
        .getAllByRole('option')
        .map((o) => o.querySelector('span')!.textContent);
    // "Timeout on every request" starts with it; no other label holds it, and the clock's
    // "real time" letters in order come nowhere near.
    expect(names()[0]).toBe('Inject Timeout on every request');
    await user.clear(input);
    await user.type(input, 'slow');
    // A word of the label first; "Run sample flow" holds the letters in order, so it follows.
    expect(names()).toEqual(['Inject Slow itemWindow', 'Run sample flow']);
    // Letters in order, as a hurried hand types them: the label that holds them first.
    await user.clear(input);
    await user.type(input, 'exphar');
    expect(names()[0]).toBe('Export HAR');
    // A keyword finds an item too, below any label that matches.
    await user.clear(input);
    await user.type(input, 'colour');
    expect(names()).toEqual(['System theme', 'Light theme', 'Dark theme']);
  });

  it('groups by area, the best group first, and shows each item’s key from the shortcut table', async () => {
    const { user } = renderConsole();
    const { input, dialog } = await openPalette(user);
    // Two labels start with "new"; the Queues area only has it among its keywords ("new queue"),
    // so its group comes after the Faults area's although it comes first in the sidebar; the
    // Player's "Send now: Next window" only holds the letters in order, so it comes last.
    await user.type(input, 'new');
    const headings = [...dialog.querySelectorAll('[cmdk-group-heading]')].map((h) => h.textContent);
    expect(headings).toEqual(['OAuth', 'Faults', 'Queues', 'Player']);
    await user.clear(input);
    await user.type(input, 'go to');
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((o) => o.querySelector('kbd')?.textContent),
    ).toEqual(AREAS.map((a) => a.key));
    await user.clear(input);
    await user.type(input, 'keyboard shortcuts');
    expect(selected().querySelector('kbd')!.textContent).toBe('?');
  });

  it('runs every area button registered by its feature: from another area, the area opens first', async () => {
    const { user } = renderConsole({ at: '/api' });
    for (const [id, spec] of Object.entries(PALETTE_ACTIONS) as [PaletteActionId, { area: AreaId; label: string }][]) {
      const { input } = await openPalette(user);
      await user.type(input, spec.label);
      expect(selected().textContent).toBe(spec.label);
      await user.keyboard('{Enter}');
      await waitFor(() => expect(ran.at(-1)).toBe(id));
      expect(where().textContent).toBe(`/${spec.area}`);
      await waitFor(() => expect(palette()).toBeNull());
    }
    expect(ran).toEqual(Object.keys(PALETTE_ACTIONS));
  });

  it('sets the theme by the switch’s own words', async () => {
    const { user } = renderConsole();
    const { input } = await openPalette(user);
    await user.type(input, 'dark theme');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(useThemeStore.getState().theme).toBe('dark'));
    act(() => useThemeStore.getState().setTheme('system'));
  });
});

describe('the frame keys', () => {
  it('? opens the sheet of every shortcut, from the one table; Escape closes it', async () => {
    const { user } = renderConsole();
    (await screen.findByRole('button', { name: 'Opener' })).focus();
    await user.keyboard('?');
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(sheet).getByRole('row', { name: /^4 Open Traffic$/ })).toBeTruthy();
    expect(within(sheet).getByRole('row', { name: /Command palette/ }).textContent).toMatch(/^Ctrl\+K/);
    // The sheet is a dialog: an area key pressed in it does nothing behind it.
    await user.keyboard('4');
    expect(where().textContent).toBe('/oauth');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  it('Escape leaves a text field and keeps its text; then the area keys work again', async () => {
    const { user } = renderConsole();
    const field = await screen.findByRole('textbox', { name: 'Some field' });
    await user.click(field);
    await user.keyboard('24');
    expect(where().textContent).toBe('/oauth');
    await user.keyboard('{Escape}');
    expect(document.activeElement).not.toBe(field);
    expect((field as HTMLInputElement).value).toBe('24');
    await user.keyboard('4');
    await waitFor(() => expect(where().textContent).toBe('/traffic'));
  });

  it('an area key reopens the area where it was left', async () => {
    const { user } = renderConsole({ at: '/traffic?target=player&entry=3' });
    (await screen.findByRole('button', { name: 'Opener' })).focus();
    await user.keyboard('3');
    await waitFor(() => expect(where().textContent).toBe('/player'));
    await user.keyboard('4');
    await waitFor(() => expect(where().textContent).toBe('/traffic?target=player&entry=3'));
  });
});
