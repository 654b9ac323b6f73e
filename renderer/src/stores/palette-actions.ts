/**
 * The buttons of the areas the command palette offers, in one table, and the registry the areas'
 * features register what those buttons do into. The palette reads the table (so an action is
 * offered from any area, before its feature was ever opened) and never imports a feature: it
 * opens the action's area and asks the registry, which runs the feature's handler as soon as the
 * feature is mounted there.
 */
import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import type { AreaId } from '../router/areas';

export interface PaletteActionSpec {
  area: AreaId;
  /** The words of the button it stands for, as the palette shows them. */
  label: string;
  keywords?: readonly string[];
  /** Said when the area cannot do it right now (no player, a form to fill first). */
  unavailable: string;
}

export const PALETTE_ACTIONS = {
  'oauth.sampleFlow': {
    area: 'oauth',
    label: 'Run sample flow',
    keywords: ['sign in', 'login', 'authorize', 'token'],
    unavailable: 'The sample flow is off under production parity.',
  },
  'oauth.newIntegration': {
    area: 'oauth',
    label: 'New integration',
    keywords: ['client', 'create', 'add'],
    unavailable: 'The OAuth area did not open its form.',
  },
  'queues.create': {
    area: 'queues',
    label: 'Create queue',
    keywords: ['new queue', 'add'],
    unavailable: 'The Queues area did not open.',
  },
  'queues.import': {
    area: 'queues',
    label: 'Import queue…',
    keywords: ['json', 'file', 'upload'],
    unavailable: 'The Queues area did not open.',
  },
  'player.sendRefresh': {
    area: 'player',
    label: 'Send now: Refresh',
    keywords: ['trigger', 'request', 'itemWindow'],
    unavailable: 'Send now needs a player: add one in the Player area.',
  },
  'player.sendVersionPoll': {
    area: 'player',
    label: 'Send now: Version poll',
    keywords: ['trigger', 'request', 'version'],
    unavailable: 'Send now needs a player: add one in the Player area.',
  },
  'player.sendNextWindow': {
    area: 'player',
    label: 'Send now: Next window',
    keywords: ['trigger', 'request', 'itemWindow'],
    unavailable: 'Send now needs a player: add one in the Player area.',
  },
  'traffic.exportHar': {
    area: 'traffic',
    label: 'Export HAR',
    keywords: ['download', 'traffic', 'log'],
    unavailable: 'The Traffic area did not open.',
  },
  'traffic.exportBundle': {
    area: 'traffic',
    label: 'Export repro bundle',
    keywords: ['download', 'reproduce'],
    unavailable: 'The Traffic area did not open.',
  },
  'traffic.importBundle': {
    area: 'traffic',
    label: 'Import bundle…',
    keywords: ['repro', 'file', 'upload'],
    unavailable: 'The Traffic area did not open.',
  },
  'faults.newScenario': {
    area: 'faults',
    label: 'New scenario',
    keywords: ['create', 'script'],
    unavailable: 'A scenario is being edited: save or cancel it first.',
  },
  'conformance.run': {
    area: 'conformance',
    label: 'Run checks',
    keywords: ['check a server', 'conformance', 'test'],
    unavailable: 'The Check area did not open.',
  },
  'fleet.start': {
    area: 'fleet',
    label: 'Start a fleet',
    keywords: ['load', 'players', 'simulate', 'stress'],
    unavailable: 'A fleet is playing: stop it or wait for its end first.',
  },
} as const satisfies Record<string, PaletteActionSpec>;

export type PaletteActionId = keyof typeof PALETTE_ACTIONS;

/** What a feature does for an action: the palette closes once it settles, or says why it failed. */
export type PaletteHandler = () => unknown;

/** How long an asked action waits for its area to mount and register (a few frames in practice). */
export const ASK_TIMEOUT_MS = 3_000;

interface Pending {
  id: PaletteActionId;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface PaletteRegistry {
  handlers: Partial<Record<PaletteActionId, PaletteHandler>>;
  pending: Pending | null;
}

export const usePaletteRegistry = create<PaletteRegistry>(() => ({ handlers: {}, pending: null }));

function settle(pending: Pending, handler: PaletteHandler): void {
  try {
    Promise.resolve(handler()).then(pending.resolve, (error: unknown) =>
      pending.reject(error instanceof Error ? error : new Error(String(error))),
    );
  } catch (error) {
    pending.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Registers a handler while its feature is mounted; a pending ask for it runs at once. */
export function registerPaletteHandler(id: PaletteActionId, handler: PaletteHandler): () => void {
  usePaletteRegistry.setState((s) => ({ handlers: { ...s.handlers, [id]: handler } }));
  const { pending } = usePaletteRegistry.getState();
  if (pending?.id === id) {
    usePaletteRegistry.setState({ pending: null });
    settle(pending, handler);
  }
  return () =>
    usePaletteRegistry.setState((s) => {
      if (s.handlers[id] !== handler) return s;
      const handlers = { ...s.handlers };
      delete handlers[id];
      return { handlers };
    });
}

/**
 * Runs an action: at once when its feature is mounted, else as soon as it registers (the caller
 * opens the area first). Settles with the handler's outcome, or fails with the action's
 * `unavailable` line when the area registers no handler for it in time.
 */
export function askPaletteAction(id: PaletteActionId, timeoutMs = ASK_TIMEOUT_MS): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const ask: Pending = { id, resolve, reject };
    const handler = usePaletteRegistry.getState().handlers[id];
    if (handler) return settle(ask, handler);
    usePaletteRegistry.getState().pending?.reject(new Error('another command was chosen'));
    usePaletteRegistry.setState({ pending: ask });
    setTimeout(() => {
      if (usePaletteRegistry.getState().pending !== ask) return;
      usePaletteRegistry.setState({ pending: null });
      reject(new Error(PALETTE_ACTIONS[id].unavailable));
    }, timeoutMs);
  });
}

/**
 * A feature's one call: what its buttons do, by action id, registered while it is mounted. A
 * handler left out (undefined) is an action the feature cannot do right now.
 */
export function usePaletteActions(handlers: Partial<Record<PaletteActionId, PaletteHandler | undefined>>): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  const ids = (Object.keys(handlers) as PaletteActionId[]).filter((id) => handlers[id] !== undefined);
  const key = ids.sort().join(' ');
  useEffect(() => {
    if (!key) return;
    const offs = (key.split(' ') as PaletteActionId[]).map((id) =>
      registerPaletteHandler(id, () => latest.current[id]?.()),
    );
    return () => offs.forEach((off) => off());
  }, [key]);
}
