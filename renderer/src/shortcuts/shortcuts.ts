/**
 * Every keyboard shortcut of the console, in one table: the frame's key handler and the Traffic
 * area's find their keys here, and the `?` sheet lists this table, so a key cannot work without
 * being listed or be listed without working. Keys that a list or a dialog handles itself (the
 * listbox's arrows, a dialog's Escape) are listed with `handledBy` naming where they live.
 *
 * Single keys never fire while a text field has focus (the key is typed); Escape leaves the field
 * first, and then they work again.
 */
import { AREAS, type AreaId } from '../router/areas';

export type ShortcutScope =
  'Anywhere' | 'Text fields' | 'Traffic' | 'Traffic entries' | 'Queue items' | 'Dialogs' | 'Scenario editor';

export type ShortcutAction =
  | { kind: 'area'; area: AreaId }
  | { kind: 'palette' }
  | { kind: 'sheet' }
  | { kind: 'leaveField' }
  | { kind: 'trafficSearch' };

export interface Shortcut {
  /** KeyboardEvent.key values, any of which fires it (letters in lower case). */
  keys: readonly string[];
  /** Ctrl, or ⌘ on macOS. */
  mod?: boolean;
  alt?: boolean;
  /** Fires with the focus in a text field too (a chord with Ctrl/⌘, or Escape). */
  inFields?: boolean;
  scope: ShortcutScope;
  description: string;
  /** What the console's own handlers do with it; absent when a component handles it (`handledBy`). */
  action?: ShortcutAction;
  handledBy?: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  ...AREAS.map((a): Shortcut => ({
    keys: [a.key],
    scope: 'Anywhere',
    description: `Open ${a.label}`,
    action: { kind: 'area', area: a.id },
  })),
  {
    keys: ['k'],
    mod: true,
    inFields: true,
    scope: 'Anywhere',
    description: 'Command palette: go anywhere, or run any button of the console by its words',
    action: { kind: 'palette' },
  },
  { keys: ['?'], scope: 'Anywhere', description: 'This list of shortcuts', action: { kind: 'sheet' } },
  {
    keys: ['Escape'],
    inFields: true,
    scope: 'Text fields',
    description: 'Leave the field (its text stays), so single-key shortcuts work again',
    action: { kind: 'leaveField' },
  },
  { keys: ['/'], scope: 'Traffic', description: 'Search the traffic log', action: { kind: 'trafficSearch' } },
  {
    keys: ['ArrowUp', 'ArrowDown'],
    scope: 'Traffic entries',
    description: 'Previous or next entry',
    handledBy: 'the traffic list',
  },
  {
    keys: ['PageUp', 'PageDown'],
    scope: 'Traffic entries',
    description: 'A page up or down',
    handledBy: 'the traffic list',
  },
  {
    keys: ['Home'],
    scope: 'Traffic entries',
    description: 'The oldest entry (stops following)',
    handledBy: 'the traffic list',
  },
  {
    keys: ['End'],
    scope: 'Traffic entries',
    description: 'The newest entry, and follow new ones',
    handledBy: 'the traffic list',
  },
  {
    keys: ['Enter'],
    scope: 'Traffic entries',
    description: 'Open the entry in the detail pane',
    handledBy: 'the traffic list',
  },
  {
    keys: ['ArrowUp', 'ArrowDown'],
    scope: 'Queue items',
    description: 'Previous or next item',
    handledBy: 'the item list',
  },
  {
    keys: ['PageUp', 'PageDown', 'Home', 'End'],
    scope: 'Queue items',
    description: 'A page up or down, the first or last item',
    handledBy: 'the item list',
  },
  { keys: [' '], scope: 'Queue items', description: 'Select or unselect the item', handledBy: 'the item list' },
  {
    keys: ['ArrowUp', 'ArrowDown'],
    alt: true,
    scope: 'Queue items',
    description: 'Move the selected items up or down',
    handledBy: 'the item list',
  },
  {
    keys: ['Delete', 'Backspace'],
    scope: 'Queue items',
    description: 'Remove the selected items (press again to confirm)',
    handledBy: 'the item list',
  },
  { keys: ['Enter'], scope: 'Queue items', description: 'Edit the item', handledBy: 'the item list' },
  { keys: ['Escape'], scope: 'Queue items', description: 'Clear the selection', handledBy: 'the item list' },
  {
    keys: ['Enter'],
    mod: true,
    inFields: true,
    scope: 'Scenario editor',
    description: 'Save the scenario',
    handledBy: 'the scenario editor',
  },
  {
    keys: ['Escape'],
    inFields: true,
    scope: 'Dialogs',
    description: 'Close the dialog (before anything else), focus back where it was',
    handledBy: 'the dialog',
  },
  {
    keys: ['Tab'],
    inFields: true,
    scope: 'Dialogs',
    description: 'Next control; focus stays in the dialog',
    handledBy: 'the dialog',
  },
  { keys: ['d'], scope: 'Anywhere', description: 'Show or hide the guided demo', handledBy: 'the guided demo' },
];

/** Where typing goes: a single key pressed here is text, not a shortcut. */
export function isTextField(target: EventTarget | null): target is HTMLElement {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA') return true;
  if (target.tagName !== 'INPUT') return false;
  return !/^(button|checkbox|color|file|hidden|image|radio|range|reset|submit)$/i.test(
    (target as HTMLInputElement).type,
  );
}

/** Keys on a select pick its options (its type-ahead): no single-key shortcut there either. */
function takesKeys(target: EventTarget | null): boolean {
  return isTextField(target) || (target instanceof HTMLElement && target.tagName === 'SELECT');
}

export function matchesShortcut(
  shortcut: Shortcut,
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>,
): boolean {
  const mod = event.ctrlKey || event.metaKey;
  if (mod !== Boolean(shortcut.mod) || event.altKey !== Boolean(shortcut.alt)) return false;
  if (!shortcut.inFields && takesKeys(event.target)) return false;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  return shortcut.keys.includes(key);
}

/** The console's own shortcut an event presses, if any (the ones components handle are theirs). */
export function shortcutFor(event: KeyboardEvent): (Shortcut & { action: ShortcutAction }) | undefined {
  return SHORTCUTS.find(
    (s): s is Shortcut & { action: ShortcutAction } => s.action !== undefined && matchesShortcut(s, event),
  );
}

/** The shortcut a component handles itself (`handledBy`), for its hints and the palette. */
export function shortcutHandledBy(handler: string): Shortcut | undefined {
  return SHORTCUTS.find((s) => s.handledBy === handler);
}

/** The number key of an area, as the palette and the sidebar show it. */
export function areaShortcut(area: AreaId): Shortcut {
  return SHORTCUTS.find((s) => s.action?.kind === 'area' && s.action.area === area)!;
}

/** The one shortcut of an action, for hints (`title="… (/)"`) and the sheet. */
export function shortcutOf(kind: ShortcutAction['kind']): Shortcut {
  return SHORTCUTS.find((s) => s.action?.kind === kind)!;
}

const KEY_NAMES: Record<string, string> = {
  ArrowUp: '↑',
  ArrowDown: '↓',
  ArrowLeft: '←',
  ArrowRight: '→',
  Escape: 'Esc',
  ' ': 'Space',
  PageUp: 'PgUp',
  PageDown: 'PgDn',
  Backspace: '⌫',
};

function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
}

/** How each of the shortcut's keys is written on screen: `Ctrl+K` (`⌘K` on a Mac), `Alt+↑`. */
export function keyLabels(shortcut: Shortcut, mac = isMac()): string[] {
  const prefix = `${shortcut.mod ? (mac ? '⌘' : 'Ctrl+') : ''}${shortcut.alt ? (mac ? '⌥' : 'Alt+') : ''}`;
  return shortcut.keys.map((key) => `${prefix}${KEY_NAMES[key] ?? (key.length === 1 ? key.toUpperCase() : key)}`);
}
