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

/**
 * Under the system scheme emulated now, reads every element's colours with no theme chosen and
 * with `chosen` chosen, and keeps both in the page for `compareAfterSwitch`.
 */
export async function readColours(page: Page, chosen: Scheme): Promise<void> {
  await page.evaluate(
    ({ chosen, properties }) => {
      const root = document.documentElement;
      const was = root.getAttribute('data-theme');
      const read = (theme: string | null) => {
        if (theme) root.setAttribute('data-theme', theme);
        else root.removeAttribute('data-theme');
        const colours = new Map<Element, string>();
        for (const element of document.querySelectorAll('*')) {
          const style = getComputedStyle(element);
          colours.set(element, properties.map((name) => style.getPropertyValue(name)).join(' | '));
        }
        return colours;
      };
      const readings = { system: read(null), chosen: read(chosen) };
      if (was) root.setAttribute('data-theme', was);
      else root.removeAttribute('data-theme');
      (window as unknown as { colourReadings: typeof readings }).colourReadings = readings;
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
  return page.evaluate(
    ({ chosenBefore, properties }) => {
      const before = (window as unknown as { colourReadings: Record<'system' | 'chosen', Map<Element, string>> })
        .colourReadings;
      const systemBefore: Scheme = chosenBefore === 'dark' ? 'light' : 'dark';
      const root = document.documentElement;
      const was = root.getAttribute('data-theme');
      const elements = [...before.system.keys()].filter((element) => element.isConnected);
      const read = (theme: string | null) => {
        if (theme) root.setAttribute('data-theme', theme);
        else root.removeAttribute('data-theme');
        return elements.map((element) => {
          const style = getComputedStyle(element);
          return properties.map((name) => style.getPropertyValue(name)).join(' | ');
        });
      };
      const systemNow = read(null);
      const chosenNow = read(systemBefore);
      if (was) root.setAttribute('data-theme', was);
      else root.removeAttribute('data-theme');

      const describe = (element: Element) =>
        `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${
          typeof element.className === 'string' && element.className ? `.${element.className.split(' ')[0]}` : ''
        } "${(element.textContent ?? '').trim().slice(0, 30)}"`;
      const differences: string[] = [];
      elements.forEach((element, index) => {
        if (before.chosen.get(element) !== systemNow[index])
          differences.push(
            `${chosenBefore} chosen over a ${systemBefore} system, ${describe(element)}: ${before.chosen.get(element)} ≠ ${systemNow[index]}`,
          );
        if (chosenNow[index] !== before.system.get(element))
          differences.push(
            `${systemBefore} chosen over a ${chosenBefore} system, ${describe(element)}: ${chosenNow[index]} ≠ ${before.system.get(element)}`,
          );
      });
      return { compared: elements.length, differences: differences.slice(0, 20) };
    },
    { chosenBefore, properties: PROPERTIES },
  );
}
