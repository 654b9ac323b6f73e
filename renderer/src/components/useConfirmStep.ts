/**
 * A destructive button's second step: the first press arms it ("Confirm …"), a second press within
 * a few seconds (but not at once: a held Enter repeats) does it, and it disarms by itself after
 * that, so one stray click or key never destroys. A keyed step arms for one target: a press for
 * another target (other rows, another file) arms that one instead of acting.
 */
import { useEffect, useState, type KeyboardEvent } from 'react';

const CONFIRM_WINDOW_MS = 4_000;
/**
 * A second press sooner than this is a double click (its second click comes within about 200 ms),
 * not a decision; a held key's repeats are told by the key event itself (IGNORE_HELD_KEY). Longer,
 * a deliberate click at 0.3 s was ignored with no word (audit).
 */
const CONFIRM_AFTER_MS = 250;

/** What a press does, given when the button was armed (null: it is not armed). */
export function confirmPress(armedAt: number | null, now: number): 'arm' | 'ignore' | 'act' {
  if (armedAt === null || now - armedAt >= CONFIRM_WINDOW_MS) return 'arm';
  return now - armedAt < CONFIRM_AFTER_MS ? 'ignore' : 'act';
}

/** What a press for `key` does, given what is armed: a press for another key arms that key. */
export function confirmPressFor(
  armed: { key: string; at: number } | null,
  key: string,
  now: number,
): 'arm' | 'ignore' | 'act' {
  return confirmPress(armed?.key === key ? armed.at : null, now);
}

/** The keyed step: `armed` is the key armed now (null: none). */
export function useConfirmTarget(): { armed: string | null; press(key: string, act: () => void): void } {
  const [armed, setArmed] = useState<{ key: string; at: number } | null>(null);
  useEffect(() => {
    if (!armed) return;
    const timer = setTimeout(() => setArmed(null), CONFIRM_WINDOW_MS);
    return () => clearTimeout(timer);
  }, [armed]);
  return {
    armed: armed?.key ?? null,
    press: (key, act) => {
      const now = performance.now();
      const step = confirmPressFor(armed, key, now);
      if (step === 'arm') setArmed({ key, at: now });
      else if (step === 'act') {
        setArmed(null);
        act();
      }
    },
  };
}

export function useConfirmStep(): { armed: boolean; press(act: () => void): void } {
  const step = useConfirmTarget();
  return { armed: step.armed !== null, press: (act) => step.press('', act) };
}

/**
 * On a confirm button: a held Enter or Space repeats, and each repeat would click it again, after
 * the key's repeat delay (often longer than CONFIRM_AFTER_MS). A repeat is not a second decision.
 */
export const IGNORE_HELD_KEY = {
  onKeyDown: (event: KeyboardEvent) => {
    if (event.repeat) event.preventDefault();
  },
};
