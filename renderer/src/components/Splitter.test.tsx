// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Splitter, usePaneWidth } from './Splitter';

/** The panes' row: happy-dom lays nothing out, so its width and the splitter's are given here. */
const ROW_WIDTH = 1200;
const SPLITTER_WIDTH = 10;

beforeEach(() => localStorage.clear());
afterEach(cleanup);

function Panes({ initial = 400 }: { initial?: number }) {
  const [width, setWidth] = usePaneWidth('test', initial, { min: 280, max: 900 });
  return (
    <div
      ref={(row) => {
        if (!row) return;
        Object.defineProperty(row, 'clientWidth', { configurable: true, value: ROW_WIDTH });
        row.getBoundingClientRect = () => ({
          left: 0,
          right: ROW_WIDTH,
          width: ROW_WIDTH,
          top: 0,
          bottom: 100,
          height: 100,
          x: 0,
          y: 0,
          toJSON: () => null,
        });
      }}
    >
      <div>list</div>
      <Splitter
        label="Resize the details"
        controls="details"
        value={width}
        min={280}
        max={900}
        keepBefore={600}
        onChange={setWidth}
      />
      <aside id="details">details</aside>
    </div>
  );
}

const separator = () => {
  const element = screen.getByRole('separator', { name: 'Resize the details' });
  Object.defineProperty(element, 'offsetWidth', { configurable: true, value: SPLITTER_WIDTH });
  return element;
};

describe('the splitter', () => {
  it('is a focusable separator that says the pane’s width and which pane it sizes', () => {
    render(<Panes />);
    const splitter = separator();
    expect(splitter.tabIndex).toBe(0);
    expect(splitter.getAttribute('aria-orientation')).toBe('vertical');
    expect(splitter.getAttribute('aria-controls')).toBe('details');
    expect(splitter.getAttribute('aria-valuenow')).toBe('400');
    expect(splitter.getAttribute('aria-valuemin')).toBe('280');
    expect(splitter.getAttribute('aria-valuemax')).toBe('900');
  });

  it('moves with the arrow keys (the pane after it widens to the left), Shift for bigger steps', async () => {
    const user = userEvent.setup();
    render(<Panes />);
    separator().focus();
    await user.keyboard('{ArrowLeft}');
    expect(separator().getAttribute('aria-valuenow')).toBe('416');
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(separator().getAttribute('aria-valuenow')).toBe('480');
    await user.keyboard('{ArrowRight}');
    expect(separator().getAttribute('aria-valuenow')).toBe('464');
  });

  it('stops at the pane’s least width, and where the pane before it would lose its width', async () => {
    const user = userEvent.setup();
    render(<Panes />);
    separator().focus();
    await user.keyboard('{Home}');
    expect(separator().getAttribute('aria-valuenow')).toBe('280');
    await user.keyboard('{ArrowRight}');
    expect(separator().getAttribute('aria-valuenow')).toBe('280');
    // 1200 px of row: 600 kept for the list, 10 for the splitter.
    await user.keyboard('{End}');
    expect(separator().getAttribute('aria-valuenow')).toBe('590');
    await user.keyboard('{ArrowLeft}');
    expect(separator().getAttribute('aria-valuenow')).toBe('590');
  });

  it('follows a drag: the pane is as wide as from the pointer to the row’s right edge', () => {
    render(<Panes />);
    const splitter = separator();
    const captured = new Set<number>();
    splitter.setPointerCapture = (id) => void captured.add(id);
    splitter.hasPointerCapture = (id) => captured.has(id);
    fireEvent.pointerDown(splitter, { pointerId: 1, button: 0, clientX: 795 });
    fireEvent.pointerMove(splitter, { pointerId: 1, clientX: 745 });
    expect(splitter.getAttribute('aria-valuenow')).toBe('450');
    expect(document.activeElement).toBe(splitter);
  });

  it('remembers the width, and a stored width out of bounds is not taken', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<Panes />);
    separator().focus();
    await user.keyboard('{ArrowLeft}');
    unmount();
    render(<Panes />);
    expect(separator().getAttribute('aria-valuenow')).toBe('416');
    cleanup();
    localStorage.setItem('cqc-pane-test', '5000');
    render(<Panes />);
    expect(separator().getAttribute('aria-valuenow')).toBe('400');
  });
});
