/** Where Tab goes: the focus put on the last control inside `container`, then Tab pressed once. */
import type { Locator } from '@playwright/test';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex="0"]';

export async function tabOutOf(container: Locator): Promise<void> {
  await container.locator(FOCUSABLE).last().focus();
  await container.page().keyboard.press('Tab');
}

/** Whether the focus is inside `region`. */
export const holdsFocus = (region: Locator): Promise<boolean> =>
  region.evaluate((element) => element.contains(document.activeElement));
