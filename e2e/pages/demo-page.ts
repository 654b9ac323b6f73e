/** The guided demo as a page module: its button in the sidebar, its checklist and each step's button. */
import { expect, type Locator, type Page } from '@playwright/test';

export type DemoStepId = 'signIn' | 'play' | 'skip' | 'pause' | 'reports' | 'retries';

export class DemoPage {
  readonly launcher: Locator;
  readonly panel: Locator;
  readonly steps: Locator;

  constructor(readonly page: Page) {
    this.launcher = page
      .getByRole('navigation', { name: 'Console areas' })
      .getByRole('button', { name: 'Guided demo' });
    this.panel = page.getByRole('complementary', { name: 'Guided demo' });
    this.steps = this.panel.getByRole('list', { name: 'Demo steps' });
  }

  step(id: DemoStepId): Locator {
    return this.steps.locator(`li[data-step="${id}"]`);
  }

  button(id: DemoStepId, name: string): Locator {
    return this.step(id).getByRole('button', { name, exact: true });
  }

  async expectTicked(id: DemoStepId): Promise<void> {
    await expect(this.step(id)).toHaveAttribute('data-done', 'true', { timeout: 20_000 });
  }
}
