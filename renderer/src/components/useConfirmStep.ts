/**
 * A destructive button's second step: the first press arms it ("Confirm …"), a second press within
 * a few seconds (but not at once: a held Enter repeats) does it, and it disarms by itself after
 * that, so one stray click or key never destroys.
 */
import { useEffect, useRef, useState } from 'react';

const CONFIRM_WINDOW_MS = 4_000;
/** A second press sooner than this is a held key's repeat or a double click, not a decision. */
const CONFIRM_AFTER_MS = 400;

/** What a press does, given when the button was armed (null: it is not armed). */
export function confirmPress(armedAt: number | null, now: number): 'arm' | 'ignore' | 'act' {
  if (armedAt === null || now - armedAt >= CONFIRM_WINDOW_MS) return 'arm';
  return now - armedAt < CONFIRM_AFTER_MS ? 'ignore' : 'act';
}

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
      const now = performance.now();
      const step = confirmPress(armed ? armedAt.current : null, now);
      if (step === 'arm') {
        armedAt.current = now;
        setArmed(true);
      } else if (step === 'act') {
        setArmed(false);
        act();
      }
    },
  };
}
