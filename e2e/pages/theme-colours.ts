/**
 * The colours every element is drawn in, read under each theme, to show that a theme chosen in
 * the app draws exactly what the system's own scheme draws. The app applies a chosen theme as
 * `<html data-theme>` and nothing else (stores/theme.ts; the a11y spec's remembered-theme test
 * holds the switch to it), so the page sets that attribute itself, between two synchronous reads
 * of the same elements: nothing the page renders in between can be mistaken for a difference.
 */
import type { Page } from '@playwright/test';

type Scheme = 'light' | 'dark';

/**
 * Every colour property as computed: each is resolved through the scheme the element uses
 * (light-dark()). `color-scheme` itself is not compared: "light dark" under a dark system and
 * "dark" chosen are two spellings of the one scheme used.
 */
const PROPERTIES = [
  'color',
  'background-color',
  'background-image',
  'border-top-color',
  'border-right-color',
  'border-bottom-color',
  'border-left-color',
  'outline-color',
  'box-shadow',
  'text-decoration-color',
  'caret-color',
  'accent-color',
  'fill',
  'stroke',
] as const;

/** What the page keeps between the two steps: the elements read, and their colours then. */
interface PageColours {
  /** Each element's colours under `theme` (null: none chosen, the system's), then the theme as it was. */
  coloursUnder(elements: Element[], theme: string | null): string[];
  before?: { elements: Element[]; system: string[]; chosen: string[] };
}

/**
 * Under the system scheme emulated now, reads every element's colours with no theme chosen and
 * with `chosen` chosen, and keeps both in the page for `compareAfterSwitch`.
 */
export async function readColours(page: Page, chosen: Scheme): Promise<void> {
  await page.evaluate(
    ({ chosen, properties }) => {
      const win = window as unknown as { pageColours?: PageColours };
      win.pageColours ??= {
        coloursUnder(elements, theme) {
          const root = document.documentElement;
          const was = root.getAttribute('data-theme');
          if (theme) root.setAttribute('data-theme', theme);
          else root.removeAttribute('data-theme');
          const colours = elements.map((element) => {
            const style = getComputedStyle(element);
            return properties.map((name) => style.getPropertyValue(name)).join(' | ');
          });
          if (was) root.setAttribute('data-theme', was);
          else root.removeAttribute('data-theme');
          return colours;
        },
      };
      const { coloursUnder } = win.pageColours;
      const elements = [...document.querySelectorAll('*')];
      win.pageColours.before = {
        elements,
        system: coloursUnder(elements, null),
        chosen: coloursUnder(elements, chosen),
      };
    },
    { chosen, properties: PROPERTIES },
  );
}

/**
 * After the emulated system scheme switched to the other one, reads the elements read before
 * again, with no theme chosen and with the scheme the system had before chosen, and compares:
 * the theme chosen then against the system's now, and the system's then against it chosen now.
 * Elements added or taken away in between (a live list) are not compared.
 */
export function compareAfterSwitch(
  page: Page,
  chosenBefore: Scheme,
): Promise<{ compared: number; differences: string[] }> {
  return page.evaluate((chosenBefore) => {
    const { coloursUnder, before } = (window as unknown as { pageColours: PageColours }).pageColours;
    const systemBefore: Scheme = chosenBefore === 'dark' ? 'light' : 'dark';
    const kept = before!.elements.flatMap((element, index) => (element.isConnected ? [index] : []));
    const elements = kept.map((index) => before!.elements[index]!);
    const systemNow = coloursUnder(elements, null);
    const chosenNow = coloursUnder(elements, systemBefore);

    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${
        typeof element.className === 'string' && element.className ? `.${element.className.split(' ')[0]}` : ''
      } "${(element.textContent ?? '').trim().slice(0, 30)}"`;
    const differences: string[] = [];
    kept.forEach((index, at) => {
      const element = elements[at]!;
      if (before!.chosen[index] !== systemNow[at])
        differences.push(
          `${chosenBefore} chosen over a ${systemBefore} system, ${describe(element)}: ${before!.chosen[index]} ≠ ${systemNow[at]}`,
        );
      if (chosenNow[at] !== before!.system[index])
        differences.push(
          `${systemBefore} chosen over a ${chosenBefore} system, ${describe(element)}: ${chosenNow[at]} ≠ ${before!.system[index]}`,
        );
    });
    return { compared: elements.length, differences: differences.slice(0, 20) };
  }, chosenBefore);
}
