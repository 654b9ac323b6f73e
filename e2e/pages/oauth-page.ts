/** The OAuth page as a page module: integrations, settings, grants and tokens, the flow inspector. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { FlowStepKind } from '../../main/engine/api/oauth-types';

export interface NewIntegration {
  name: string;
  description?: string;
  category?: string;
  redirectUris: string[];
}

export class OAuthPage {
  readonly newIntegrationForm: Locator;
  readonly secretCallout: Locator;
  readonly inspector: Locator;
  readonly flows: Locator;
  readonly timeline: Locator;

  constructor(readonly page: Page) {
    this.newIntegrationForm = page.getByRole('form', { name: 'New integration' });
    this.secretCallout = page.getByRole('region', { name: 'New client secret' });
    this.inspector = page.getByRole('region', { name: 'Flow inspector' });
    this.flows = this.inspector.getByRole('list', { name: 'Flows' });
    this.timeline = this.inspector.getByRole('list', { name: 'Timeline' });
  }

  async open(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console areas' }).getByRole('button', { name: 'OAuth' }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'OAuth' })).toBeVisible();
  }

  async fillNewIntegration(integration: NewIntegration): Promise<void> {
    if (!(await this.newIntegrationForm.isVisible()))
      await this.page.getByRole('button', { name: 'New integration' }).click();
    const form = this.newIntegrationForm;
    await form.getByLabel('Name').fill(integration.name);
    await form.getByLabel('Description').fill(integration.description ?? '');
    await form.getByLabel('Category').fill(integration.category ?? '');
    await form.getByLabel('Redirect URLs').fill(integration.redirectUris.join('\n'));
    await form.getByRole('button', { name: 'Create integration' }).click();
  }

  integration(name: string): Locator {
    return this.page.getByRole('article', { name });
  }

  async expand(name: string): Promise<Locator> {
    const card = this.integration(name);
    const toggle = card.getByRole('button', { name, exact: true });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    return card;
  }

  setting(label: 'Auto-approve' | 'Production parity' | 'Capture redirects'): Locator {
    return this.page.getByRole('switch', { name: label });
  }

  /** Clicks a button that opens the login service in a new tab; resolves with that tab. */
  async opensTab(button: Locator): Promise<Page> {
    const popup = this.page.waitForEvent('popup');
    await button.click();
    return popup;
  }

  runSampleFlow(): Promise<Page> {
    return this.opensTab(this.page.getByRole('button', { name: 'Run sample flow' }));
  }

  async startFlow(integration: string): Promise<Page> {
    const card = await this.expand(integration);
    return this.opensTab(card.getByRole('button', { name: 'Start OAuth flow' }).first());
  }

  /** The selected flow's steps of one kind (the engine's step kinds: authorize, login, consent, …). */
  step(kind: FlowStepKind): Locator {
    return this.timeline.locator(`li[data-kind="${kind}"]`);
  }

  /** The selected flow's captured redirect: the one-time reveal and, once revealed, the code with its curl. */
  get captured(): Locator {
    return this.inspector.getByRole('group', { name: 'Captured redirect' });
  }

  tokens(card: Locator, kind: 'access' | 'refresh'): Locator {
    return card
      .getByRole('table', { name: 'Grants and tokens' })
      .getByRole('row', { name: new RegExp(`^${kind} token`) });
  }
}

/** The login service's pages in a tab: sign-in, consent. */
export class LoginPages {
  constructor(readonly page: Page) {}

  async signIn(username: string, password: string): Promise<void> {
    await this.page.getByLabel('Username').fill(username);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  async decide(decision: 'Allow' | 'Deny'): Promise<void> {
    await this.page.getByRole('button', { name: decision }).click();
  }
}
