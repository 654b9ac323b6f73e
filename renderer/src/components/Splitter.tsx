/**
 * A splitter between two panes side by side, sizing the pane after it (the WAI-ARIA window
 * splitter pattern): drag it, or focus it and press ←/→ (Shift for bigger steps), Home and End
 * for the pane's least and greatest width. The width is the separator's value, and is remembered
 * per splitter in localStorage, so the pane comes back as wide as it was left.
 */
import { useCallback, useState, type KeyboardEvent, type PointerEvent } from 'react';
import styles from './Splitter.module.css';

const STEP = 16;
const BIG_STEP = 64;

export interface SplitterProps {
  /** What it resizes, as its accessible name ("Resize the entry details"). */
  label: string;
  /** The id of the pane it sizes. */
  controls: string;
  /** The pane's width in px. */
  value: number;
  min: number;
  max: number;
  /**
   * The least width the pane before it keeps: the splitter stops there too. A custom property's
   * name reads it from the panes' row as it is now (a container query may change it).
   */
  keepBefore: number | `--${string}`;
  onChange(width: number): void;
  /** Where the area places it (hidden where the panes stack); its look is its own. */
  className?: string;
}

export function Splitter({ label, controls, value, min, max, keepBefore, onChange, className }: SplitterProps) {
  /** The greatest width the pane may take now: its max, or what the pane before it leaves. */
  const limit = (element: HTMLElement) => {
    const parent = element.parentElement;
    if (!parent) return max;
    // The panes' row: the splitter, the pane before it and the two gaps around the splitter.
    const style = getComputedStyle(parent);
    const keep = typeof keepBefore === 'number' ? keepBefore : parseFloat(style.getPropertyValue(keepBefore)) || 0;
    const room = parent.clientWidth - keep - element.offsetWidth - 2 * (parseFloat(style.columnGap) || 0);
    return Math.max(min, Math.min(max, room));
  };
  const set = (element: HTMLElement, width: number) =>
    onChange(Math.round(Math.max(min, Math.min(limit(element), width))));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const element = event.currentTarget;
    // The pane is after the splitter: moving the splitter left widens it.
    if (event.key === 'ArrowLeft') set(element, value + step);
    else if (event.key === 'ArrowRight') set(element, value - step);
    else if (event.key === 'Home') set(element, min);
    else if (event.key === 'End') set(element, limit(element));
    else return;
    event.preventDefault();
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    const element = event.currentTarget;
    element.setPointerCapture(event.pointerId);
    element.focus();
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const element = event.currentTarget;
    if (!element.hasPointerCapture(event.pointerId)) return;
    const right = element.parentElement?.getBoundingClientRect().right ?? 0;
    set(element, right - event.clientX - element.offsetWidth / 2);
  };

  return (
    <div
      className={className ? `${styles.splitter} ${className}` : styles.splitter}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-controls={controls}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuetext={`${value} px`}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
    />
  );
}

/** A pane's width, remembered under `cqc-pane-<key>` in localStorage (a refused storage keeps it for the session). */
export function usePaneWidth(
  key: string,
  initial: number,
  { min, max }: { min: number; max: number },
): [number, (width: number) => void] {
  const storageKey = `cqc-pane-${key}`;
  const [width, setWidth] = useState(() => {
    try {
      const stored = Number(globalThis.localStorage?.getItem(storageKey));
      return Number.isFinite(stored) && stored >= min && stored <= max ? stored : initial;
    } catch {
      return initial;
    }
  });
  const change = useCallback(
    (next: number) => {
      setWidth(next);
      try {
        globalThis.localStorage?.setItem(storageKey, String(next));
      } catch {
        // Storage refused: the width holds until the page reloads.
      }
    },
    [storageKey],
  );
  return [width, change];
}
