/** The Faults area as a page module: presets, the custom rule form, the rules list, scenarios. */
import { expect, type Locator, type Page } from '@playwright/test';
import { pastConfirmGuard } from './console-page';

export class FaultsPage {
  readonly rules: Locator;
  readonly ruleForm: Locator;
  readonly clearAll: Locator;
  readonly scenarios: Locator;
  readonly scenarioJson: Locator;
  readonly report: Locator;

  constructor(readonly page: Page) {
    this.rules = page.getByRole('table', { name: 'Fault rules' });
    this.ruleForm = page.getByRole('form', { name: 'Custom rule' });
    // Named "Clear all", then "Confirm: remove …" once armed: the same button.
    this.clearAll = page.getByRole('button', { name: /^(Clear all|Clearing…|Confirm: remove)/ });
    this.scenarios = page.getByRole('list', { name: 'Saved scenarios' });
    this.scenarioJson = page.getByLabel('Scenario JSON');
    this.report = page.getByRole('region', { name: 'Scenario report' });
  }

  /** Clears every rule as a user does: the first press arms the button, the second (past its guard) clears. */
  async clearAllRules(rules: 'the rule' | `all ${number} rules`): Promise<void> {
    await this.page.getByRole('button', { name: 'Clear all' }).click();
    const confirm = this.page.getByRole('button', { name: `Confirm: remove ${rules}` });
    await expect(confirm).toBeVisible();
    await pastConfirmGuard(this.page);
    await confirm.click();
  }

  async open(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console areas' }).getByRole('button', { name: 'Faults' }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Faults' })).toBeVisible();
  }

  /** Injects a preset with one click, at the console's server or inside the player's client. */
  async inject(preset: string, where: 'Console server' | 'Player client' = 'Console server'): Promise<void> {
    await this.page
      .getByRole('radiogroup', { name: `Where ${preset} applies` })
      .getByRole('radio', { name: where })
      .check();
    await this.page.getByRole('button', { name: `Inject ${preset}` }).click();
  }

  rule(name: string): Locator {
    return this.rules.getByRole('row', { name });
  }

  hits(name: string): Locator {
    return this.rule(name).getByTestId('rule-hits');
  }

  /** The rule's place in the matching order, counted from 1. */
  position(name: string): Locator {
    return this.rule(name).getByTestId('rule-position');
  }

  /** Sends now the request the rule waits for. */
  async trigger(name: string): Promise<void> {
    await this.rule(name)
      .getByRole('button', { name: /^Trigger now: / })
      .click();
  }

  /** Runs a scenario template from the row at the top of the area. */
  async runTemplate(label: string): Promise<void> {
    await this.page.getByRole('button', { name: `Run template: ${label}` }).click();
  }

  field(label: string): Locator {
    return this.ruleForm.getByLabel(label, { exact: true });
  }

  /** Every preset's description is shown whole, not cut off. */
  async expectPresetDescriptionsWhole(): Promise<void> {
    const presets = this.page.getByRole('region', { name: 'Presets' });
    const texts = presets.getByTestId('preset-description');
    await expect(texts).toHaveCount(await presets.getByRole('listitem').count());
    const cut = await texts.evaluateAll((ps) =>
      ps.filter((p) => p.scrollHeight > p.clientHeight || p.scrollWidth > p.clientWidth).map((p) => p.textContent),
    );
    expect(cut).toEqual([]);
  }

  /** The labels of these fields sit on one line, whichever of them shows an error. */
  async expectLabelsLevel(...labels: string[]): Promise<void> {
    const tops = await Promise.all(
      labels.map(async (label) => (await this.ruleForm.getByText(label, { exact: true }).boundingBox())!.y),
    );
    expect(Math.max(...tops) - Math.min(...tops), `labels ${labels.join(', ')} at ${tops.join(', ')}`).toBeLessThan(1);
  }

  scenario(name: string): Locator {
    return this.scenarios.getByRole('listitem').filter({ hasText: name });
  }

  /** Opens the editor, fills the JSON (or a template) and saves. */
  async newScenario(fill: { template: string; queueId: string; player: string } | { json: string }): Promise<void> {
    await this.page.getByRole('button', { name: 'New scenario' }).click();
    const editor = this.page.getByRole('form', { name: 'New scenario' });
    if ('template' in fill) {
      await editor.getByLabel('Template', { exact: true }).selectOption({ label: fill.template });
      await editor.getByLabel('Queue', { exact: true }).selectOption(fill.queueId);
      await editor.getByLabel('Player', { exact: true }).selectOption({ label: fill.player });
      await editor.getByRole('button', { name: 'Use template' }).click();
    } else {
      await this.scenarioJson.fill(fill.json);
    }
  }

  async saveScenario(): Promise<void> {
    await this.page.getByRole('button', { name: 'Save scenario' }).click();
  }

  async run(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Run ${name}` }).click();
  }
}
