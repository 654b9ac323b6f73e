/** The Traffic area as a page module: filters, the virtualized list, the open entry, export, the log's settings. */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import type { ConsolePage } from './console-page';

/**
 * One new request's entry, found by a marker of its own and opened (at `size` when given): a
 * window asked of a queue that does not exist, so it answers 404.
 */
export async function openNewEntry(
  consolePage: ConsolePage,
  cloudQueue: string,
  size?: { width: number; height: number },
): Promise<TrafficPage> {
  if (size) await consolePage.page.setViewportSize(size);
  await consolePage.waitUntilLive();
  const traffic = new TrafficPage(consolePage.page);
  await traffic.open();
  const marker = `t${randomBytes(4).toString('hex')}`;
  await fetch(`${cloudQueue}/queues/${marker}/v2.3/itemWindow?reason=load`);
  await traffic.search(marker);
  await traffic.expectCount(1);
  await traffic.openFirst();
  return traffic;
}

export class TrafficPage {
  readonly list: Locator;
  readonly rows: Locator;
  readonly count: Locator;
  readonly detail: Locator;
  readonly follow: Locator;
  /** The byte budget's field, in MB. */
  readonly budget: Locator;

  constructor(readonly page: Page) {
    this.list = page.getByRole('listbox', { name: 'Traffic entries' });
    this.rows = this.list.getByRole('option');
    this.count = page.getByLabel('Entries shown');
    this.detail = page.getByRole('complementary', { name: 'Entry details' });
    this.follow = page.getByRole('button', { name: 'Follow' });
    this.budget = page.getByRole('group', { name: 'Log settings' }).getByLabel('Byte budget');
  }

  /** Types a byte budget in MB and applies it (Enter). */
  async setBudget(mb: number): Promise<void> {
    await this.budget.fill(String(mb));
    await this.budget.press('Enter');
  }

  async open(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console areas' }).getByRole('button', { name: 'Traffic' }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Traffic' })).toBeVisible();
  }

  async filterTarget(target: string): Promise<void> {
    await this.page.getByLabel('Target', { exact: true }).selectOption(target);
  }

  async filterReason(reason: string): Promise<void> {
    await this.page.getByLabel('Reason', { exact: true }).selectOption(reason);
  }

  async filterStatus(status: string): Promise<void> {
    await this.page.getByLabel('Status', { exact: true }).fill(status);
  }

  /** The message of an unreadable status filter covers neither the log settings nor the list. */
  async expectStatusErrorClearOfSettings(): Promise<void> {
    const error = (await this.page.getByRole('alert').boundingBox())!;
    for (const other of [this.page.getByRole('group', { name: 'Log settings' }), this.list]) {
      const box = (await other.boundingBox())!;
      const apart =
        error.x + error.width <= box.x ||
        box.x + box.width <= error.x ||
        error.y + error.height <= box.y ||
        box.y + box.height <= error.y;
      expect(apart, `the status filter's message overlaps ${await other.getAttribute('aria-label')}`).toBe(true);
    }
  }

  /** Types into the search box and applies it at once (Enter), as the count that follows must be of it. */
  async search(text: string): Promise<void> {
    const box = this.page.getByLabel('Search traffic');
    await box.fill(text);
    await box.press('Enter');
  }

  /** Waits until the filtered log holds exactly `n` entries. */
  async expectCount(n: number, timeout?: number): Promise<void> {
    await expect(this.count).toHaveAttribute('data-total', String(n), { timeout });
  }

  /**
   * Opens the first row once its entry has arrived: the count can answer before the page of
   * rows does, and a row still loading has nothing to open.
   */
  async openFirst(): Promise<void> {
    const first = this.rows.first();
    await expect(first).toHaveAttribute('data-id', /\d+/);
    await first.click();
    await expect(first).toHaveAttribute('aria-selected', 'true');
  }

  /** The first row's last columns (status, latency, retry, the fault marker) are inside the list's own box. */
  async expectLastColumnsInList(): Promise<void> {
    const list = (await this.list.boundingBox())!;
    for (const cell of ['traffic-status', 'traffic-fault']) {
      const box = (await this.rows.first().getByTestId(cell).boundingBox())!;
      expect(box.x + box.width, cell).toBeLessThanOrEqual(list.x + list.width);
    }
  }

  /** "Export repro bundle", saved to `file`: answers the bundle's JSON. */
  async exportBundle(file: string): Promise<Record<string, unknown>> {
    const download = this.page.waitForEvent('download');
    await this.page.getByRole('button', { name: 'Export repro bundle' }).click();
    const bundle = await download;
    expect(bundle.suggestedFilename()).toMatch(/\.bundle\.json$/);
    await bundle.saveAs(file);
    return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  }

  row(id: number): Locator {
    return this.list.locator(`[role="option"][data-id="${id}"]`);
  }
}
