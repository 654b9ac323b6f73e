/**
 * The command palette (Ctrl+K, ⌘K on a Mac, or the status bar's button): type a few letters of a
 * player, a queue, a flow, an entry id or a request id, a preset, a scenario or a clock step, and
 * Enter. A modal dialog (ModalDialog): focus stays in it, Escape closes it and focus goes back to
 * where it was. The list is cmdk's (a combobox over a listbox, ↑/↓ and Enter).
 */
import { Command } from 'cmdk';
import { useState } from 'react';
import { keyLabels, shortcutOf } from '../shortcuts/shortcuts';
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
  const groups = usePaletteItems(query);

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
    <Command label="Command palette" className={styles.command} loop>
      <Command.Input
        className={styles.input}
        value={query}
        onValueChange={setQuery}
        placeholder="Player, queue, flow, entry or request id, preset, scenario, clock…"
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
                keywords={item.keywords}
                className={styles.item}
                disabled={running !== null && running !== item.value}
                onSelect={() => void choose(item)}
              >
                <span>{running === item.value ? `${item.label}…` : item.label}</span>
                {item.detail && <span className={styles.detail}>{item.detail}</span>}
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
      title="Command palette: go anywhere, run a preset or scenario, set the clock"
    >
      Commands <kbd>{key}</kbd>
    </button>
  );
}
