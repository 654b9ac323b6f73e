/**
 * The frame's keys, read from the shortcut table: the area keys, the palette, the `?` sheet, and
 * Escape leaving a text field. An open dialog (ModalDialog) keeps every key to itself, so none of
 * these fire behind it, and its Escape closes it before anything here sees the key.
 */
import { useEffect } from 'react';
import { useOverlays } from '../components/overlays';
import { useOpenArea } from '../router/area-memory';
import { isTextField, shortcutFor } from './shortcuts';

export function useFrameShortcuts(): void {
  const openArea = useOpenArea();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // A key a component already acted on (a list's Escape clearing its selection) is its own.
      if (event.defaultPrevented) return;
      const action = shortcutFor(event)?.action;
      switch (action?.kind) {
        case 'area':
          openArea(action.area);
          break;
        case 'palette':
          useOverlays.getState().show('palette');
          break;
        case 'sheet':
          useOverlays.getState().show('sheet');
          break;
        case 'leaveField':
          if (!isTextField(event.target)) return;
          // Blur only: the text stays (a search field would clear itself on Escape otherwise).
          event.target.blur();
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [openArea]);
}
