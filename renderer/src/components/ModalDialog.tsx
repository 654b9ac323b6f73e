/**
 * A real modal: a native <dialog> opened with showModal(), so the page behind is inert and focus
 * stays inside; keys pressed while it is open never reach the page's own shortcuts (the console's
 * area keys); Tab wraps around inside it (past its last field the browser would hand focus
 * to its own toolbar); Escape asks the owner to close (it may ask first, e.g. over unsaved edits);
 * and focus goes back to where it was when the dialog opened.
 */
import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode, type SyntheticEvent } from 'react';

export interface ModalDialogProps {
  label: string;
  className?: string;
  /** Escape (or any other close request): the owner decides whether the dialog goes. */
  onRequestClose(): void;
  /** Where focus goes on close when what had it before the dialog opened is gone (an element id). */
  returnFocusTo?: string;
  children: ReactNode;
}

const TABBABLE = 'input, select, textarea, button, a[href], [tabindex]:not([tabindex="-1"])';

/** The dialog's controls Tab stops at, in order. */
function tabStops(dialog: HTMLElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => !element.matches(':disabled') && element.getClientRects().length > 0,
  );
}

export function ModalDialog({ label, className, onRequestClose, returnFocusTo, children }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // Read when the dialog closes: a new value must not close and open it again.
  const returnFocusToRef = useRef(returnFocusTo);
  useLayoutEffect(() => {
    returnFocusToRef.current = returnFocusTo;
  }, [returnFocusTo]);

  useLayoutEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement;
    let open = true;
    dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    // With focus on nothing (a click on the dialog's padding) keys start at <body>: stop them there.
    const guard = (event: Event) => {
      if (!dialog.contains(event.target as Node)) event.stopPropagation();
    };
    // Closed by the browser without asking (a close request it would not let us cancel): open it again.
    const reopen = () => {
      if (open && dialog.isConnected) dialog.showModal();
    };
    window.addEventListener('keydown', guard, true);
    dialog.addEventListener('close', reopen);
    return () => {
      open = false;
      window.removeEventListener('keydown', guard, true);
      dialog.removeEventListener('close', reopen);
      dialog.close();
      const back =
        opener instanceof HTMLElement && opener.isConnected && opener !== document.body
          ? opener
          : returnFocusToRef.current
            ? document.getElementById(returnFocusToRef.current)
            : null;
      back?.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    // The page behind is inert: none of its keyboard shortcuts apply while the dialog is open.
    event.stopPropagation();
    if (event.key === 'Tab') {
      const stops = tabStops(ref.current!);
      const at = stops.indexOf(document.activeElement as HTMLElement);
      const edge = event.shiftKey ? 0 : stops.length - 1;
      if (stops.length > 0 && (at === edge || at === -1)) {
        event.preventDefault();
        stops[event.shiftKey ? stops.length - 1 : 0]!.focus();
      }
    } else if (event.key === 'Escape') {
      // Handled here rather than through the dialog's own close request, which Chromium stops
      // letting us cancel after one refusal: an owner asking "discard changes?" must keep control.
      event.preventDefault();
      // A held Escape's repeats would answer that question for the user.
      if (!event.repeat) onRequestClose();
    }
  };
  const onCancel = (event: SyntheticEvent) => {
    event.preventDefault();
    onRequestClose();
  };

  return (
    <dialog ref={ref} className={className} aria-label={label} onKeyDown={onKeyDown} onCancel={onCancel}>
      {children}
    </dialog>
  );
}
