/**
 * "Start OAuth flow" in Electron: the OAuth window on its own session partition, sandboxed and
 * without the engine bridge, walking the login pages (sign-in, consent), every navigation on the
 * inspector's timeline, and the redirect to a URL nobody listens at captured and shown.
 * Runs where an Electron binary exists; elsewhere it says so plainly and is skipped.
 */
import { expect, test } from '@playwright/test';
import { ConsolePage } from '../pages/console-page';
import { LoginPages, OAuthPage } from '../pages/oauth-page';
import { binary, NOT_RUN_REASON, withElectronApp } from './app';

test.describe('OAuth flows in the Electron OAuth window', () => {
  test.skip(!binary, NOT_RUN_REASON);

  test('runs the sample flow in the OAuth window and captures a redirect nobody listens at', async () => {
    await withElectronApp(async (app) => {
      const consolePage = new ConsolePage(await app.firstWindow());
      await consolePage.waitUntilLive();
      const oauth = new OAuthPage(consolePage.page);
      await oauth.open();

      const sampleWindow = app.waitForEvent('window');
      await consolePage.page.getByRole('button', { name: 'Run sample flow' }).click();
      const sample = new LoginPages(await sampleWindow);
      await sample.signIn('demo', 'demo');
      await sample.decide('Allow');
      await expect(sample.page.getByRole('list', { name: 'Households' })).toHaveText('Demo Household');
      await expect(oauth.step('navigation').first()).toBeVisible();
      await expect(oauth.step('api_call')).toHaveCount(1);

      await oauth.fillNewIntegration({ name: 'Nobody listens', redirectUris: ['http://127.0.0.1:9/callback'] });
      await oauth.secretCallout.getByRole('button', { name: 'Done' }).click();
      const flowWindow = app.waitForEvent('window');
      await (await oauth.expand('Nobody listens')).getByRole('button', { name: 'Start OAuth flow' }).click();
      const login = new LoginPages(await flowWindow);
      // The login service's page, in a window of its own: no Node, and no way to the engine.
      await expect(login.page.getByLabel('Username')).toBeVisible();
      expect(
        await login.page.evaluate(() => ({
          process: typeof process,
          require: typeof require,
          bridge: typeof (window as { cqc?: unknown }).cqc,
        })),
      ).toEqual({
        process: 'undefined',
        require: 'undefined',
        bridge: 'undefined',
      });
      await login.signIn('demo', 'demo');
      await login.decide('Allow');
      await expect(login.page.getByRole('heading', { name: 'Redirect captured' })).toBeVisible();
      await expect(oauth.step('callback')).toContainText(
        'redirect captured in the OAuth window: code and matching state',
      );
    });
  });
});
