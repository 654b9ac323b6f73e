/**
 * Nothing that matters is cut, at 1024, 1440 and 1920 px, in any area with real content in it: a
 * text an element clips (a status, a path, a name cut by an ellipsis) carries its full text on
 * hover and in its name, no control's label is wider than the control, and every control sits
 * inside what its scrolling containers show without a sideways scroll.
 *
 * `CLIPPING_SHOTS=/dir` also saves each area at each width in both themes, to look at.
 */
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { AREA_NAMES, setScene, show, type AreaName, type Scene } from './pages/showcase';

// Its own console: the scene's run, rule and player are this spec's, whatever other specs left.
test.use({ ownConsole: 'clipping' });

let scene: Scene;
test.beforeAll(async ({ served }) => {
  scene = await setScene(served.ready);
});

const WIDTHS = [
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;

/** What is cut or out of reach in the area as it is now, one line per element; empty when nothing is. */
function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const main = document.querySelector('main')!;
    const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    };
    const describe = (element: Element) => {
      const role = element.getAttribute('role');
      return `${element.tagName.toLowerCase()}${role ? `[role=${role}]` : ''} "${squash(element.getAttribute('aria-label') ?? element.textContent).slice(0, 60)}"`;
    };
    // The full text is on hover (a title) or in the name (aria-label) of the element or of the row,
    // cell or control it sits in.
    const fullTextOffered = (element: Element, text: string) => {
      for (let node: Element | null = element; node && node !== main; node = node.parentElement) {
        if (squash(node.getAttribute('title')).includes(text) || squash(node.getAttribute('aria-label')).includes(text))
          return true;
        if (node.matches('td, th, li, [role="option"], [role="row"], button, a')) break;
      }
      return false;
    };
    const controls = 'button, a[href], input:not([type="hidden"]), select, textarea, summary, [role="tab"]';

    for (const element of main.querySelectorAll<HTMLElement>('*')) {
      if (!visible(element) || element.closest('[aria-hidden="true"], .sr-only')) continue;
      const style = getComputedStyle(element);
      const wider = element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0;

      // A text clipped where it ends (overflow hidden or clip, with or without an ellipsis).
      if (wider && (style.overflowX === 'hidden' || style.overflowX === 'clip')) {
        const text = squash(element.textContent);
        if (text && !fullTextOffered(element, text)) problems.push(`cut without its full text: ${describe(element)}`);
      }

      if (!element.matches(controls)) continue;
      // A control's own label spilling out of it (a button narrower than its words).
      if (wider && !element.matches('input, select, textarea') && style.overflowX === 'visible')
        problems.push(`label wider than its control: ${describe(element)}`);
      // A control out of reach: beyond the left or right edge of what a container above it shows.
      const box = element.getBoundingClientRect();
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const overflowX = getComputedStyle(parent).overflowX;
        if (overflowX === 'visible') continue;
        const edge = parent.getBoundingClientRect();
        const left = edge.left + parent.clientLeft;
        const right = left + parent.clientWidth;
        if (box.left < left - 1 || box.right > right + 1) {
          problems.push(
            `control outside what its container shows (${Math.round(box.left)}–${Math.round(box.right)} of ${Math.round(left)}–${Math.round(right)}): ${describe(element)}`,
          );
          break;
        }
      }
    }
    return problems;
  });
}

/** The tabs an area shows one at a time, each judged: the queue's details. */
const TABS: Partial<Record<AreaName, { list: string; tabs: string[] }>> = {
  Queues: { list: 'Queue details', tabs: ['Players', 'Reports', 'Policies'] },
};

/** The views of an area: as the showcase leaves it, then each of its tabs. */
async function* views(page: Page, area: AreaName): AsyncGenerator<string> {
  const tabbed = TABS[area];
  if (!tabbed) {
    yield area;
    return;
  }
  for (const name of tabbed.tabs) {
    const tab = page.getByRole('main').getByRole('tablist', { name: tabbed.list }).getByRole('tab', { name });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    yield `${area} (${name})`;
  }
}

const shots = process.env.CLIPPING_SHOTS;

for (const { width, height } of WIDTHS) {
  test(`at ${width} px nothing that matters is cut or out of reach in any area`, async ({ consolePage, page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width, height });
    await consolePage.waitUntilLive();
    const problems: string[] = [];
    for (const area of AREA_NAMES) {
      await show(page, scene, area);
      for await (const where of views(page, area)) {
        problems.push(...(await clipped(page)).map((problem) => `${where}: ${problem}`));
        if (shots) {
          mkdirSync(shots, { recursive: true });
          for (const scheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
            const file = `${width}-${scheme}-${where.replace(/\W+/g, '-').toLowerCase()}.png`;
            await page.screenshot({ path: join(shots, file) });
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
}
