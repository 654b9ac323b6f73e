/**
 * A destructive button's second step: the first press arms it ("Confirm …"), a second press within
 * a few seconds does it, and it disarms by itself after that, so one stray click never destroys.
 */
import { useEffect, useState } from 'react';

export const CONFIRM_WINDOW_MS = 4_000;

export function useConfirmStep(): { armed: boolean; press(act: () => void): void; disarm(): void } {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    if (!armed) return;
    const timer = setTimeout(() => setArmed(false), CONFIRM_WINDOW_MS);
    return () => clearTimeout(timer);
  }, [armed]);
  return {
    armed,
    press: (act) => {
      if (!armed) return setArmed(true);
      setArmed(false);
      act();
    },
    disarm: () => setArmed(false),
  };
}
