/**
 * The frame's layout, measured in the page: what is wrong with it at the current window size (the
 * page scrolling sideways, a status bar on two lines, a table whose columns are cut), how wide
 * the sidebar is, and whether each Tab stop shows a focus ring.
 */
import type { Page } from '@playwright/test';

/** Everything wrong with the layout as it is now; empty when nothing is. */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const page = document.scrollingElement!;
    if (page.scrollWidth > page.clientWidth)
      problems.push(`the page scrolls sideways (${page.scrollWidth} > ${page.clientWidth})`);
    const content = document.querySelector('main')!;
    if (content.scrollWidth > content.clientWidth + 1)
      problems.push(`the area scrolls sideways (${content.scrollWidth} > ${content.clientWidth})`);

    // One line: nothing overflows the bar, and its items share one band across it.
    const bar = document.querySelector<HTMLElement>('footer')!;
    if (bar.scrollWidth > bar.clientWidth + 1)
      problems.push(`the status bar overflows (${bar.scrollWidth} > ${bar.clientWidth})`);
    const items = [...bar.children]
      .map((item) => item.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0);
    const bandTop = Math.max(...items.map((box) => box.top));
    const bandBottom = Math.min(...items.map((box) => box.bottom));
    const tallest = Math.max(...items.map((box) => box.height));
    if (bandTop >= bandBottom || bar.clientHeight >= 2 * tallest)
      problems.push(`the status bar is more than one line (${Math.round(bar.getBoundingClientRect().height)} px high)`);

    // A table never clips: where it is wider than a container that hides overflow, it is cut.
    for (const table of document.querySelectorAll('main table')) {
      const box = table.getBoundingClientRect();
      if (box.width === 0) continue;
      const name = table.getAttribute('aria-label') ?? table.querySelector('caption')?.textContent ?? table.className;
      let parent = table.parentElement;
      while (parent && parent !== document.body) {
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow !== 'visible') {
          const edge = parent.getBoundingClientRect();
          if (
            (overflow === 'hidden' || overflow === 'clip') &&
            (box.right > edge.right + 1 || box.left < edge.left - 1)
          )
            problems.push(`table "${name}" is cut by its container`);
          break;
        }
        parent = parent.parentElement;
      }
      // A cell whose content is wider than the cell spills over its neighbour or is cut.
      for (const cell of table.querySelectorAll<HTMLElement>('th, td')) {
        if (cell.clientWidth > 0 && cell.scrollWidth > cell.clientWidth + 1) {
          problems.push(
            `table "${name}": a cell's content is wider than its column (${cell.textContent?.slice(0, 40)})`,
          );
          break;
        }
      }
    }
    return problems;
  });
}

/** The sidebar's width in px. */
export async function sidebarWidth(page: Page): Promise<number> {
  return (await page.getByRole('navigation', { name: 'Console areas' }).boundingBox())!.width;
}

/**
 * A Tab stop: where it is (a path from the body, so a walk knows when it came round) and
 * `ringless` describing it when it shows no ring (an outline, or for a visually hidden radio, its
 * drawn label's), null when it does.
 */
export interface FocusStop {
  id: string;
  ringless: string | null;
}

/**
 * Records every Tab stop as the focus arrives on it, in the page (a `focusin` listener), until
 * `takeFocusStops` reads them. A walk then presses Tab several times between reads, instead of a
 * round trip to the page after each press: the walk of every area took 53 s that way, 25 s this.
 */
export async function recordFocusStops(page: Page): Promise<void> {
  await page.evaluate(() => {
    const win = window as unknown as { focusStops?: FocusStop[] };
    if (win.focusStops) return;
    win.focusStops = [];
    document.addEventListener('focusin', () => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return;
      const path: string[] = [];
      for (let node: Element | null = element; node && node !== document.body; node = node.parentElement)
        path.unshift(`${node.tagName}:${[...(node.parentElement?.children ?? [])].indexOf(node)}`);
      const id = path.join('/');
      const ringed = (candidate: Element | null) => {
        if (!candidate) return false;
        const style = getComputedStyle(candidate);
        return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
      };
      // A radio or checkbox drawn by the label around it shows the ring on what it draws.
      const drawn = element.matches('input[type="radio"], input[type="checkbox"], input[type="file"]')
        ? (element.nextElementSibling ?? element.parentElement)
        : null;
      if (ringed(element) || ringed(drawn)) return void win.focusStops!.push({ id, ringless: null });
      const role = element.getAttribute('role');
      const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40);
      win.focusStops!.push({
        id,
        ringless: `${element.tagName.toLowerCase()}${role ? `[role=${role}]` : ''} "${name}"`,
      });
    });
  });
}

/** The Tab stops recorded since the last read (`recordFocusStops`), in order. */
export function takeFocusStops(page: Page): Promise<FocusStop[]> {
  return page.evaluate(() => (window as unknown as { focusStops: FocusStop[] }).focusStops.splice(0));
}
