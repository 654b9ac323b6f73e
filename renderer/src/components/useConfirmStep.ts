/**
 * A destructive button's second step: the first press arms it ("Confirm …"), a second press within
 * a few seconds (but not at once: a held Enter repeats) does it, and it disarms by itself after
 * that, so one stray click or key never destroys.
 */
import { useEffect, useRef, useState } from 'react';

const CONFIRM_WINDOW_MS = 4_000;
/** A second press sooner than this is a held key's repeat or a double click, not a decision. */
const CONFIRM_AFTER_MS = 400;

export function useConfirmStep(): { armed: boolean; press(act: () => void): void } {
  const [armed, setArmed] = useState(false);
  const armedAt = useRef(0);
  useEffect(() => {
    if (!armed) return;
    const timer = setTimeout(() => setArmed(false), CONFIRM_WINDOW_MS);
    return () => clearTimeout(timer);
  }, [armed]);
  return {
    armed,
    press: (act) => {
      if (!armed) {
        armedAt.current = performance.now();
        return setArmed(true);
      }
      if (performance.now() - armedAt.current < CONFIRM_AFTER_MS) return;
      setArmed(false);
      act();
    },
  };
}
