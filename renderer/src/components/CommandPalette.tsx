/**
 * The command palette (Ctrl+K, ⌘K on a Mac, or the status bar's button): type a few letters of
 * what an item reads (an area, a button's words, a player, a queue, a flow, a preset, an entry or
 * request id) and Enter. A modal dialog (ModalDialog): focus stays in it, Escape closes it and
 * focus goes back to where it was. The list is cmdk's (a combobox over a listbox, ↑/↓ and Enter);
 * the matching is ours (CommandPaletteRank.ts), on the words shown, best first, so cmdk's own
 * filter, which scores each item's hidden value, is off.
 */
import { Command } from 'cmdk';
import { useState } from 'react';
import { keyLabels, shortcutOf } from '../shortcuts/shortcuts';
import { rankGroups } from './CommandPaletteRank';
import { ModalDialog } from './ModalDialog';
import { useOverlays } from './overlays';
import { usePaletteItems, type PaletteItem } from './usePaletteItems';
import styles from './palette.module.css';

export function CommandPalette() {
  const open = useOverlays((s) => s.open === 'palette');
  const close = useOverlays((s) => s.close);
  if (!open) return null;
  return (
    <ModalDialog label="Command palette" className={styles.palette} onRequestClose={close}>
      <PaletteBody onDone={close} />
    </ModalDialog>
  );
}

function PaletteBody({ onDone }: { onDone(): void }) {
  const [query, setQuery] = useState('');
  const [running, setRunning] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const groups = rankGroups(usePaletteItems(query), query);
  // The best match is the one Enter runs: cmdk keeps its choice across renders, so it is set here.
  const first = groups[0]?.items[0]?.value ?? '';
  const [selected, setSelected] = useState(first);
  const [selectedFor, setSelectedFor] = useState(query);
  if (selectedFor !== query) {
    setSelectedFor(query);
    setSelected(first);
  }

  const choose = async (item: PaletteItem) => {
    if (running) return;
    setError(null);
    const done = item.run();
    if (!(done instanceof Promise)) return onDone();
    setRunning(item.value);
    try {
      await done;
      onDone();
    } catch (failure) {
      setError(`${item.label}: ${failure instanceof Error ? failure.message : String(failure)}`);
      setRunning(null);
    }
  };

  return (
    <Command
      label="Command palette"
      className={styles.command}
      loop
      shouldFilter={false}
      value={selected}
      onValueChange={setSelected}
    >
      <Command.Input
        className={styles.input}
        value={query}
        onValueChange={setQuery}
        placeholder="Go to an area, run a command, find a player, queue, flow or request…"
        data-autofocus
      />
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      <Command.List className={styles.list} label="Commands">
        <Command.Empty className={styles.empty}>Nothing matches “{query}”.</Command.Empty>
        {groups.map((group) => (
          <Command.Group key={group.heading} heading={group.heading} className={styles.group}>
            {group.items.map((item) => (
              <Command.Item
                key={item.value}
                value={item.value}
                className={styles.item}
                disabled={running !== null && running !== item.value}
                onSelect={() => void choose(item)}
              >
                <span className={styles.label}>{running === item.value ? `${item.label}…` : item.label}</span>
                {item.detail && <span className={styles.detail}>{item.detail}</span>}
                {item.keys && (
                  <span className={styles.keys}>
                    <span className="sr-only">, key </span>
                    {item.keys.map((key) => (
                      <kbd key={key}>{key}</kbd>
                    ))}
                  </span>
                )}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
      </Command.List>
    </Command>
  );
}

/** The status bar's way in, for those who do not know the key yet (which it shows). */
export function PaletteButton() {
  const show = useOverlays((s) => s.show);
  const key = keyLabels(shortcutOf('palette'))[0]!;
  return (
    <button
      type="button"
      className={styles.button}
      onClick={() => show('palette')}
      aria-keyshortcuts="Control+K Meta+K"
      title="Command palette: go anywhere, or run any button of the console by its words"
    >
      Commands <kbd>{key}</kbd>
    </button>
  );
}
