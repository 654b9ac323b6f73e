// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type KeyboardEvent } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listboxTarget, useVirtualListbox } from './useVirtualListbox';
import { VirtualListbox, VirtualOption } from './VirtualListbox';

const ROW_HEIGHT = 30;
/** The listbox's height in the test: ten rows in view. */
const VIEW_HEIGHT = 300;

beforeAll(() => {
  // happy-dom lays nothing out: the listbox gets a height, so the virtualizer has a view to fill.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.getAttribute('role') === 'listbox' ? VIEW_HEIGHT : 0;
    },
  });
  // As tall as its rows' element says (the virtualizer clamps a scroll to it).
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.getAttribute('role') === 'listbox'
        ? parseFloat(this.querySelector<HTMLElement>('.rows')?.style.height ?? '0')
        : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.getAttribute('role') === 'listbox' ? 400 : 0;
    },
  });
});

afterEach(cleanup);

/** A list like the console's: rows named by their text, Space toggles a row's selection, Enter opens it. */
function Rows({
  count,
  onOpen = () => undefined,
  empty,
}: {
  count: number;
  onOpen?(index: number): void;
  empty?: string;
}) {
  const [active, setActive] = useState<number | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const listbox = useVirtualListbox({
    id: 'rows',
    count,
    rowHeight: ROW_HEIGHT,
    overscan: 5,
    active,
    onActive: setActive,
  });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (active === null) return;
    if (event.key === ' ') {
      event.preventDefault();
      const next = new Set(selected);
      if (!next.delete(active)) next.add(active);
      setSelected(next);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      onOpen(active);
    }
  };
  return (
    <VirtualListbox
      listbox={listbox}
      label="Rows"
      multiselectable
      rowsClassName="rows"
      onKeyDown={onKeyDown}
      empty={empty}
    >
      {(row) => (
        <VirtualOption
          key={row.key}
          listbox={listbox}
          row={row}
          selected={selected.has(row.index)}
          onClick={() => setActive(row.index)}
        >
          <span>Row</span> <span>{row.index + 1}</span>
        </VirtualOption>
      )}
    </VirtualListbox>
  );
}

/** Lets the virtualizer's scroll and resize callbacks land. */
async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
}

async function renderRows(count: number, props: Partial<Parameters<typeof Rows>[0]> = {}) {
  const user = userEvent.setup();
  render(<Rows count={count} {...props} />);
  await settle();
  const listbox = screen.getByRole('listbox', { name: 'Rows' });
  return { user, listbox };
}

const options = (listbox: HTMLElement) => within(listbox).queryAllByRole('option');
const indexes = (listbox: HTMLElement) => options(listbox).map((option) => Number(option.dataset.index));
const activeOption = (listbox: HTMLElement) => {
  const id = listbox.getAttribute('aria-activedescendant');
  return id === null ? null : document.getElementById(id);
};

/** What a browser does after a scroll by script, which happy-dom does not: tells the listbox it scrolled. */
async function scrolled(listbox: HTMLElement) {
  fireEvent.scroll(listbox);
  await settle();
}

/** Scrolls the listbox as a wheel would, and lets the virtualizer catch up. */
async function scrollTo(listbox: HTMLElement, top: number) {
  listbox.scrollTop = top;
  fireEvent.scroll(listbox);
  await settle();
}

describe('a virtualized listbox', () => {
  it('renders only a window of 100,000 rows, each saying where it stands in the whole list', async () => {
    const { listbox } = await renderRows(100_000);
    const shown = options(listbox);
    // Ten rows in view and five each side: nowhere near 100,000.
    expect(shown.length).toBeGreaterThanOrEqual(10);
    expect(shown.length).toBeLessThan(30);
    expect(shown[0]).toHaveProperty('id', 'rows-option-0');
    for (const option of shown) {
      const index = Number(option.dataset.index);
      expect(option.getAttribute('aria-setsize')).toBe('100000');
      expect(option.getAttribute('aria-posinset')).toBe(String(index + 1));
      expect(option.getAttribute('aria-selected')).toBe('false');
    }
    expect(listbox.getAttribute('tabindex')).toBe('0');
    expect(listbox.getAttribute('aria-multiselectable')).toBe('true');
    expect(listbox.hasAttribute('aria-activedescendant')).toBe(false);

    await scrollTo(listbox, 50_000 * ROW_HEIGHT);
    const middle = indexes(listbox);
    expect(middle).toContain(50_000);
    expect(middle.length).toBeLessThan(30);
    expect(document.getElementById('rows-option-50000')?.getAttribute('aria-posinset')).toBe('50001');
  });

  it('names each option by its visible text, with no aria-label to drift from it', async () => {
    const { listbox } = await renderRows(3);
    expect(within(listbox).getByRole('option', { name: 'Row 2' })).toHaveProperty('id', 'rows-option-1');
    for (const option of options(listbox)) expect(option.hasAttribute('aria-label')).toBe(false);
  });

  it('moves the active option with the arrows, a page with PageUp/PageDown, to the ends with Home/End', async () => {
    const { user, listbox } = await renderRows(100);
    listbox.focus();
    await user.keyboard('{ArrowDown}');
    expect(activeOption(listbox)?.dataset.index).toBe('0');
    expect(activeOption(listbox)?.dataset.active).toBe('true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(activeOption(listbox)?.dataset.index).toBe('2');
    await user.keyboard('{ArrowUp}');
    expect(activeOption(listbox)?.dataset.index).toBe('1');
    await user.keyboard('{PageDown}');
    await scrolled(listbox);
    expect(listbox.getAttribute('aria-activedescendant')).toBe('rows-option-21');
    await user.keyboard('{PageUp}{PageUp}');
    await scrolled(listbox);
    expect(listbox.getAttribute('aria-activedescendant')).toBe('rows-option-0');
    await user.keyboard('{ArrowUp}');
    expect(listbox.getAttribute('aria-activedescendant')).toBe('rows-option-0');
    // Only one option is the active one.
    expect(options(listbox).filter((option) => option.dataset.active)).toHaveLength(1);
  });

  it('scrolls the active option into view: End on 100,000 rows shows the last, Home the first', async () => {
    const { user, listbox } = await renderRows(100_000);
    listbox.focus();
    await user.keyboard('{End}');
    await scrolled(listbox);
    expect(listbox.scrollTop).toBeGreaterThanOrEqual(100_000 * ROW_HEIGHT - VIEW_HEIGHT - 1);
    const last = activeOption(listbox);
    expect(last?.dataset.index).toBe('99999');
    expect(last?.getAttribute('aria-posinset')).toBe('100000');
    expect(options(listbox).length).toBeLessThan(30);
    await user.keyboard('{PageDown}');
    expect(activeOption(listbox)?.dataset.index).toBe('99999');

    await user.keyboard('{Home}');
    await scrolled(listbox);
    expect(listbox.scrollTop).toBe(0);
    expect(activeOption(listbox)?.dataset.index).toBe('0');
  });

  it('starts from the rows in view: down from the first shown, up from the last shown', async () => {
    const { user, listbox } = await renderRows(1_000);
    await scrollTo(listbox, 500 * ROW_HEIGHT);
    listbox.focus();
    await user.keyboard('{ArrowDown}');
    expect(activeOption(listbox)?.dataset.index).toBe('500');

    cleanup();
    const again = await renderRows(1_000);
    await scrollTo(again.listbox, 500 * ROW_HEIGHT);
    again.listbox.focus();
    await again.user.keyboard('{ArrowUp}');
    expect(activeOption(again.listbox)?.dataset.index).toBe('509');
  });

  it("hands the list's own keys to it first: Space selects, Enter opens, and neither moves", async () => {
    const onOpen = vi.fn();
    const { user, listbox } = await renderRows(50, { onOpen });
    listbox.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    await user.keyboard(' ');
    expect(within(listbox).getByRole('option', { name: 'Row 2' }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown} ');
    expect(
      options(listbox)
        .filter((option) => option.getAttribute('aria-selected') === 'true')
        .map((option) => option.dataset.index),
    ).toEqual(['1', '2']);
    await user.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledWith(2);
    expect(activeOption(listbox)?.dataset.index).toBe('2');
    // A click makes a row the active one; the listbox keeps focus.
    await user.click(within(listbox).getByRole('option', { name: 'Row 5' }));
    expect(activeOption(listbox)?.dataset.index).toBe('4');
  });

  it('points aria-activedescendant only at an option that exists', async () => {
    const { user, listbox } = await renderRows(10_000);
    listbox.focus();
    await user.keyboard('{ArrowDown}');
    expect(listbox.getAttribute('aria-activedescendant')).toBe('rows-option-0');
    // Scrolled far away, the active row has no element: nothing is pointed at.
    await scrollTo(listbox, 5_000 * ROW_HEIGHT);
    expect(document.getElementById('rows-option-0')).toBeNull();
    expect(listbox.hasAttribute('aria-activedescendant')).toBe(false);
  });

  it('says why it is empty without giving the listbox a child that is not an option', async () => {
    const { user, listbox } = await renderRows(0, { empty: 'Nothing here yet.' });
    expect(options(listbox)).toHaveLength(0);
    const note = document.getElementById(listbox.getAttribute('aria-describedby')!);
    expect(note?.textContent).toBe('Nothing here yet.');
    expect(note?.getAttribute('aria-hidden')).toBe('true');
    listbox.focus();
    await user.keyboard('{ArrowDown}{End}');
    expect(listbox.hasAttribute('aria-activedescendant')).toBe(false);
  });
});

describe('the row a key goes to', () => {
  const view = { first: 40, last: 49 };
  it('moves by one, by a page, to the ends, clamped to the list', () => {
    expect(listboxTarget('ArrowDown', 3, 100, view)).toBe(4);
    expect(listboxTarget('ArrowUp', 0, 100, view)).toBe(0);
    expect(listboxTarget('ArrowDown', 99, 100, view)).toBe(99);
    expect(listboxTarget('PageDown', 90, 100, view)).toBe(99);
    expect(listboxTarget('PageUp', 10, 100, view, 5)).toBe(5);
    expect(listboxTarget('Home', 50, 100, view)).toBe(0);
    expect(listboxTarget('End', 50, 100, view)).toBe(99);
  });

  it('starts from the rows in view when no row is active, and ignores other keys and empty lists', () => {
    expect(listboxTarget('ArrowDown', null, 100, view)).toBe(40);
    expect(listboxTarget('ArrowUp', null, 100, view)).toBe(49);
    expect(listboxTarget('PageDown', null, 100, view)).toBe(60);
    expect(listboxTarget('Enter', 3, 100, view)).toBeNull();
    expect(listboxTarget('ArrowDown', null, 0, view)).toBeNull();
  });
});
