/** The Queues area as a page module: the queue list, the editor, its items and details. */
import { expect, type Locator, type Page } from '@playwright/test';

export class QueuesPage {
  readonly items: Locator;
  readonly version: Locator;
  readonly baseUrl: Locator;
  readonly accessToken: Locator;
  readonly sidebar: Locator;

  constructor(readonly page: Page) {
    this.items = page.getByRole('listbox', { name: 'Queue items' });
    this.version = page.getByLabel('Queue version');
    this.baseUrl = page.getByLabel('Queue base URL');
    this.accessToken = page.getByLabel('Access token', { exact: true });
    this.sidebar = page.getByRole('complementary', { name: 'Queues' });
  }

  async open(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console areas' }).getByRole('button', { name: 'Queues' }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Queues' })).toBeVisible();
  }

  async create(name: string): Promise<void> {
    await this.sidebar.getByLabel('New queue name').fill(name);
    await this.sidebar.getByRole('button', { name: 'Create queue' }).click();
    await expect(this.page.getByRole('region', { name: `Queue ${name}` })).toBeVisible();
  }

  /** Creates a queue with `count` sample items and waits until the last one shows. */
  async createWithItems(name: string, count: number): Promise<void> {
    await this.create(name);
    await this.generate(count);
    await expect(this.row(count - 1)).toHaveAttribute('data-item-id', `item-${count}`);
  }

  async select(name: string): Promise<void> {
    await this.sidebar.getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await expect(this.page.getByRole('region', { name: `Queue ${name}` })).toBeVisible();
  }

  async currentVersion(): Promise<string> {
    return (await this.version.getAttribute('data-version')) ?? '';
  }

  /** Waits until the shown queueVersion differs from `before`; answers the new one. */
  async versionChangedFrom(before: string): Promise<string> {
    await expect(this.version).not.toHaveAttribute('data-version', before);
    return this.currentVersion();
  }

  async generate(count: number): Promise<void> {
    await this.page.getByLabel('Number of sample tracks').fill(String(count));
    await this.page.getByRole('button', { name: 'Generate' }).click();
  }

  row(index: number): Locator {
    return this.items.locator(`[role="option"][data-index="${index}"]`);
  }

  rowByItem(itemId: string): Locator {
    return this.items.locator(`[role="option"][data-item-id="${itemId}"]`);
  }

  /** Item ids of the rendered rows, in order. */
  async renderedIds(): Promise<string[]> {
    return this.items
      .locator('[role="option"][data-item-id]')
      .evaluateAll((rows) =>
        rows
          .sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')))
          .map((row) => row.getAttribute('data-item-id')!),
      );
  }

  async connection(): Promise<{ baseUrl: string; token: string }> {
    return { baseUrl: (await this.baseUrl.textContent())!, token: (await this.accessToken.textContent())! };
  }

  tab(name: 'Players' | 'Reports' | 'Policies'): Locator {
    return this.page.getByRole('tab', { name });
  }

  /** The item actions' toolbar (Add item, Generate, Remove). */
  get toolbar(): Locator {
    return this.page.getByRole('toolbar', { name: 'Item actions' });
  }

  /**
   * The cells of the rendered rows (by their `data-cell`: title, artist, duration, id, marks) that
   * are cut (text wider than its cell) or out of the list's view, as "row 3 title"; empty when every
   * one shows whole.
   */
  async cutCells(cells: string[]): Promise<string[]> {
    return this.items.evaluate((list, names) => {
      const box = list.getBoundingClientRect();
      const cut: string[] = [];
      for (const row of list.querySelectorAll<HTMLElement>('[role="option"][data-item-id]')) {
        for (const name of names) {
          const cell = row.querySelector<HTMLElement>(`[data-cell="${name}"]`);
          const rect = cell?.getBoundingClientRect();
          if (
            !cell ||
            !rect ||
            cell.scrollWidth > cell.clientWidth ||
            rect.width === 0 ||
            rect.left < box.left ||
            rect.right > box.right
          ) {
            cut.push(`row ${row.dataset.index} ${name}`);
          }
        }
      }
      return cut;
    }, cells);
  }

  /**
   * What is wrong with the Policies tab's layout: a flag whose checkbox is not right before its name
   * on the same line, a name cut by the panel, or a panel that scrolls sideways.
   */
  async policiesLayoutProblems(): Promise<string[]> {
    return this.page.getByRole('tabpanel').evaluate((panel) => {
      const problems: string[] = [];
      const right = panel.getBoundingClientRect().right;
      if (panel.scrollWidth > panel.clientWidth)
        problems.push(`panel scrolls sideways (${panel.scrollWidth} > ${panel.clientWidth})`);
      for (const box of panel.querySelectorAll('input[type="checkbox"]')) {
        const name = box.closest('label')?.querySelector('code');
        if (!name) {
          problems.push('a checkbox without a name');
          continue;
        }
        const a = box.getBoundingClientRect();
        const b = name.getBoundingClientRect();
        if (a.right > b.left || b.left - a.right > 12)
          problems.push(`${name.textContent}: checkbox not right before its name`);
        if (Math.abs(a.top + a.height / 2 - (b.top + b.height / 2)) > 4)
          problems.push(`${name.textContent}: checkbox not on its name's line`);
        if (b.right > right || name.scrollWidth > name.clientWidth) problems.push(`${name.textContent}: cut`);
        if (b.height > parseFloat(getComputedStyle(name).lineHeight) * 1.5)
          problems.push(`${name.textContent}: broken over lines`);
      }
      return problems;
    });
  }
}

/** GET /itemWindow as a player would send it, with the queue's token. */
export async function itemWindow(connection: { baseUrl: string; token: string }, query: string, playerId?: string) {
  const response = await fetch(`${connection.baseUrl}itemWindow?${query}`, {
    headers: { authorization: `Bearer ${connection.token}`, ...(playerId ? { 'x-player-id': playerId } : {}) },
  });
  return {
    status: response.status,
    body: (await response.json()) as { queueVersion: string; items: { id: string; track: { name?: string } }[] },
  };
}
