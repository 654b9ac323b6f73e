/** The API area as a page module: the generated description, its filter and its operations. */
import { expect, type Locator, type Page } from '@playwright/test';

export class ApiPage {
  readonly filter: Locator;
  readonly count: Locator;

  constructor(readonly page: Page) {
    this.filter = page.getByRole('searchbox', { name: 'Filter calls' });
    // The one live region in the area: how many calls the filter leaves.
    this.count = page.getByRole('main').getByRole('status');
  }

  async open(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console areas' }).getByRole('button', { name: 'API' }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Admin API' })).toBeVisible();
  }

  group(tag: string): Locator {
    return this.page.getByRole('region', { name: new RegExp(`^${tag} `) });
  }

  operation(command: string): Locator {
    // An operation is a <details> whose summary shows its path and, last, its command.
    return this.page
      .getByRole('main')
      .locator('details')
      .filter({
        has: this.page.locator('summary > code', { hasText: new RegExp(`^${command.replaceAll('.', '\\.')}$`) }),
      });
  }
}
