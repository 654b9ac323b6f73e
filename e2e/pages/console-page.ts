/** The console's frame as a page module: areas, status bar, service URLs and the engine clock. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { ServiceUrls } from '../../main/engine/api/types';

/**
 * Past the guard of a destructive step's second press (useConfirmStep ignores one within 250 ms:
 * a double click is not a decision), and past a held key's repeat delay.
 */
export async function pastConfirmGuard(page: Page): Promise<void> {
  await page.waitForTimeout(450);
}

/** The clock's steps by their duration, and the label each button shows (and is named by). */
const STEP_LABELS = { '1 min': '+1m', '10 min': '+10m', '1 h': '+1h', '24 h': '+24h' } as const;

export class ConsolePage {
  readonly engineTime: Locator;
  readonly nav: Locator;

  constructor(readonly page: Page) {
    this.engineTime = page.getByLabel('Engine time');
    this.nav = page.getByRole('navigation', { name: 'Console areas' });
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.waitUntilLive();
  }

  /** Ready once the engine clock arrived over the transport. */
  async waitUntilLive(): Promise<void> {
    await expect(this.engineTime).toHaveAttribute('data-now', /^\d+$/);
  }

  /** The URL a service card holds (it shows host:port; the full URL is its data and its copy). */
  serviceUrl(service: keyof ServiceUrls): Locator {
    return this.page.locator(`[data-service="${service}"] code`);
  }

  copyButton(label: string): Locator {
    return this.page.getByRole('button', { name: `Copy ${label} URL` });
  }

  area(name: string): Locator {
    return this.nav.getByRole('button', { name });
  }

  async engineNow(): Promise<number> {
    return Number(await this.engineTime.getAttribute('data-now'));
  }

  async setSpeed(label: 'Stop' | '1×' | '10×' | '60×' | '600×'): Promise<void> {
    const radio = this.page.getByRole('radiogroup', { name: 'Clock speed' }).getByRole('radio', { name: label });
    await radio.click();
    await expect(radio).toHaveAttribute('aria-checked', 'true');
  }

  /** Presses the step's button ("+1h" for 1 h) in the status bar's "Advance the clock" group. */
  async advance(step: keyof typeof STEP_LABELS): Promise<void> {
    await this.page
      .getByRole('group', { name: 'Advance the clock' })
      .getByRole('button', { name: STEP_LABELS[step], exact: true })
      .click();
  }
}
