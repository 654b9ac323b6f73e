/**
 * The `?` sheet: every shortcut of the console, listed from the one table the key handlers read
 * (shortcuts/shortcuts.ts), grouped by where it works.
 */
import { SHORTCUTS, keyLabels, type Shortcut, type ShortcutScope } from '../shortcuts/shortcuts';
import { ModalDialog } from './ModalDialog';
import { useOverlays } from './overlays';
import styles from './palette.module.css';

function byScope(): [ShortcutScope, Shortcut[]][] {
  const groups = new Map<ShortcutScope, Shortcut[]>();
  for (const shortcut of SHORTCUTS) groups.set(shortcut.scope, [...(groups.get(shortcut.scope) ?? []), shortcut]);
  return [...groups];
}

export function ShortcutSheet() {
  const open = useOverlays((s) => s.open === 'sheet');
  const close = useOverlays((s) => s.close);
  if (!open) return null;
  return (
    <ModalDialog label="Keyboard shortcuts" className={styles.sheet} onRequestClose={close}>
      <div className={styles.sheetHead}>
        <h2>Keyboard shortcuts</h2>
        <button type="button" onClick={close} data-autofocus>
          Close
        </button>
      </div>
      {/* A Tab stop of its own: the list scrolls, and a keyboard must be able to scroll it. */}
      <div className={styles.sheetBody} tabIndex={0} role="group" aria-label="Shortcuts by where they work">
        {byScope().map(([scope, shortcuts]) => (
          <table key={scope} className={styles.sheetTable}>
            <caption>{scope}</caption>
            <tbody>
              {shortcuts.map((shortcut) => (
                <tr key={`${shortcut.keys.join()}-${shortcut.description}`}>
                  <th scope="row">
                    {keyLabels(shortcut).map((label, index) => (
                      <span key={label}>
                        {index > 0 && <span className={styles.or}> or </span>}
                        <kbd>{label}</kbd>
                      </span>
                    ))}
                  </th>
                  <td>{shortcut.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
    </ModalDialog>
  );
}
