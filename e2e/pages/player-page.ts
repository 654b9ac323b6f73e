/** The Player area as a page module: a player's state, its buttons, the command bar, the timeline. */
import { expect, type Locator, type Page } from '@playwright/test';

export class PlayerPage {
  readonly state: Locator;
  readonly commandBar: Locator;
  readonly timeline: Locator;
  readonly answer: Locator;
  /** The workbench: the player's requests, the fault rules beside them. */
  readonly requests: Locator;
  readonly faults: Locator;
  readonly reports: Locator;

  constructor(readonly page: Page) {
    this.state = page.getByTestId('player-state');
    this.commandBar = page.getByRole('region', { name: 'Command bar' });
    this.timeline = page.getByRole('region', { name: 'Transitions' });
    this.answer = this.commandBar.getByRole('status', { name: 'Control API answer' });
    this.requests = page.getByRole('region', { name: 'Player requests' });
    this.faults = page.getByRole('region', { name: 'Fault rules', exact: true });
    this.reports = page.getByRole('region', { name: 'Reports', exact: true });
  }

  /** A preset injected from the workbench; answers its rule in the list. */
  async injectPreset(label: string): Promise<Locator> {
    await this.faults.getByLabel('Fault preset').selectOption({ label });
    await this.faults.getByRole('button', { name: 'Inject', exact: true }).click();
    return this.rule(label);
  }

  /** The workbench's "Send now" button for one of the player's own requests; waits for what it sent. */
  async sendNow(label: 'Refresh' | 'Version poll' | 'Next window', sent: string | RegExp): Promise<void> {
    await this.faults
      .getByRole('group', { name: 'Send a player request now' })
      .getByRole('button', { name: label, exact: true })
      .click();
    await expect(this.faults.getByRole('status', { name: 'Trigger answer' })).toContainText(sent);
  }

  /** Removes a rule with its ✕ and waits until the list no longer has it. */
  async removeRule(name: string): Promise<void> {
    await this.rule(name)
      .getByRole('button', { name: `Remove rule ${name}` })
      .click();
    await expect(this.rule(name)).toHaveCount(0);
  }

  rule(name: string): Locator {
    return this.faults.getByRole('list', { name: 'Active fault rules' }).getByRole('listitem', { name });
  }

  async open(group: string): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console areas' }).getByRole('button', { name: 'Player' }).click();
    await this.page
      .getByRole('tablist', { name: 'Players' })
      .getByRole('tab', { name: new RegExp(`^${group}`) })
      .click();
  }

  button(title: 'Play' | 'Pause' | 'Skip to the next track' | 'Skip to the previous track'): Locator {
    return this.page.getByRole('group', { name: 'Player buttons' }).getByRole('button', { name: title });
  }

  async expectState(state: string): Promise<void> {
    await expect(this.state).toHaveText(state);
    await expect(
      this.page.getByRole('img', { name: /^State diagram/ }).locator(`[data-state="${state}"]`),
    ).toHaveAttribute('data-current', 'true');
  }

  /** createSession, then loadCloudQueue of a console queue, through the command bar. */
  async loadConsoleQueue(queueLabel: string): Promise<void> {
    await this.commandBar.getByRole('button', { name: 'Create session' }).click();
    await expect(this.answer.locator('[data-status]')).toHaveText('200');
    await this.commandBar.getByLabel('Control command to send').selectOption('loadCloudQueue');
    await this.commandBar.getByLabel('Console queue').selectOption({ label: queueLabel });
    await this.commandBar.getByRole('button', { name: 'Send' }).click();
    await expect(this.answer).toContainText('loadCloudQueue');
    await expect(this.answer.locator('[data-status]')).toHaveText('200');
  }
}
