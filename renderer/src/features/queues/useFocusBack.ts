/**
 * When something that held focus goes away (a confirm button that acted or disarmed), focus would
 * drop to <body> and the keyboard would go nowhere: put it back on `target` instead.
 */
import { useEffect, useRef, type RefObject } from 'react';

export function useFocusBack(shown: boolean, target: RefObject<HTMLElement | null>): void {
  const wasShown = useRef(shown);
  useEffect(() => {
    const hidden = wasShown.current && !shown;
    wasShown.current = shown;
    if (hidden && (document.activeElement === null || document.activeElement === document.body))
      target.current?.focus();
  }, [shown, target]);
}
