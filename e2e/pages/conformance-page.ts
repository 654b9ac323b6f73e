/**
 * The "Check a server" area as a page module: the form (a base URL and Authorization, or one of
 * the console's queues), the open run with its progress, summary and result table, its exports,
 * rerun and delete, and the list of kept runs.
 */
import { expect, type Download, type Locator, type Page } from '@playwright/test';

export class ConformancePage {
  readonly form: Locator;
  readonly queue: Locator;
  readonly baseUrl: Locator;
  readonly authorization: Locator;
  readonly runChecks: Locator;
  /** The open run: `data-status` is running, passed or failed. */
  readonly run: Locator;
  readonly runHeading: Locator;
  readonly summary: Locator;
  readonly progress: Locator;
  readonly currentCase: Locator;
  readonly results: Locator;
  readonly runError: Locator;
  readonly runs: Locator;
  readonly rerun: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole('form', { name: 'Server to check' });
    this.queue = this.form.getByLabel('One of the console’s queues');
    this.baseUrl = this.form.getByLabel('Base URL');
    this.authorization = this.form.getByLabel('Authorization', { exact: true });
    this.runChecks = this.form.getByRole('button', { name: 'Run checks' });
    // The open run: the section that carries its id.
    this.run = page.locator('section[data-run-id]');
    this.runHeading = this.run.getByRole('heading', { level: 2 });
    this.summary = this.run.getByLabel('Summary');
    this.progress = this.run.getByRole('progressbar', { name: 'Cases settled' });
    this.currentCase = this.run.getByLabel('Current case');
    this.results = this.run.getByRole('table', { name: 'Results by contract section' });
    this.runError = this.run.locator('p[data-kind]');
    this.runs = page.getByRole('listbox', { name: 'Kept runs' });
    this.rerun = this.run.getByRole('button', { name: 'Rerun' });
  }

  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Console areas' })
      .getByRole('button', { name: 'Check a server' })
      .click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Check a server' })).toBeVisible();
  }

  /** Fills the form from one of the console's own queues, by its name. */
  async pickQueue(name: string): Promise<void> {
    await this.queue.selectOption({ label: await this.optionLabel(name) });
  }

  /**
   * The option's full label, once the list holds it: the queue list arrives after the area opens,
   * so a queue made just before may not be an option yet.
   */
  private async optionLabel(name: string): Promise<string> {
    let label: string | undefined;
    await expect
      .poll(
        async () => {
          const labels = await this.queue.locator('option').allTextContents();
          label = labels.find((text) => text.startsWith(`${name} · `));
          return label ?? `no queue ${name} among ${labels.join(', ')}`;
        },
        { timeout: 10_000 },
      )
      .not.toMatch(/^no queue /);
    return label!;
  }

  /** Waits for the open run to end as `status`. */
  async expectEnded(status: 'passed' | 'failed', timeout = 20_000): Promise<void> {
    await expect(this.run).toHaveAttribute('data-status', status, { timeout });
  }

  caseRow(id: string): Locator {
    return this.results.locator(`tr[data-case-id="${id}"]`);
  }

  section(rule: string): Locator {
    return this.results.getByRole('rowgroup', { name: rule });
  }

  /** The case rows of the result table (not its section headings). */
  caseRows(): Locator {
    return this.results.locator('tr[data-case-id]');
  }

  evidenceLinks(caseId: string): Locator {
    return this.caseRow(caseId).getByRole('link');
  }

  /** Clicks one export button (JSON, JUnit XML, HTML) and answers the file it saved. */
  async export(label: 'JSON' | 'JUnit XML' | 'HTML'): Promise<Download> {
    const download = this.page.waitForEvent('download');
    await this.run.getByRole('group', { name: 'Export' }).getByRole('button', { name: label }).click();
    return download;
  }

  runOption(runId: string): Locator {
    return this.runs.locator(`[role="option"][data-run-id="${runId}"]`);
  }

  /** The id of the run open now. */
  async openRunId(): Promise<string> {
    return (await this.run.getAttribute('data-run-id'))!;
  }
}
