import { expect, test } from './fixtures';
import { holdsFocus, tabOutOf } from './tab-order';
import { adminApi } from './admin-api';
import { LoginPages, OAuthPage } from './pages/oauth-page';

/** Nothing listens here: the browser's requests to it are answered by the test. */
const REDIRECT = 'http://127.0.0.1:9/callback';

test.describe('the OAuth page in Chromium', () => {
  test.beforeEach(async ({ context }) => {
    await context.route(`${REDIRECT}**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<title>Integration callback</title><h1>Integration callback</h1>',
      }),
    );
  });

  test('registers an integration, shows its secret once with a copy button, and flags loopback redirect URLs', async ({
    consolePage,
    page,
    context,
    served,
  }) => {
    const oauth = new OAuthPage(page);
    await consolePage.waitUntilLive();
    await oauth.open();
    await oauth.fillNewIntegration({ name: 'Bad redirect', redirectUris: ['not a url'] });
    // A line is one URL, refused whole, not word by word.
    await expect(oauth.newIntegrationForm.getByRole('alert')).toContainText('"not a url"');
    await oauth.fillNewIntegration({ name: 'Bad redirect', redirectUris: ['http://192.168.1.20/cb'] });
    await expect(oauth.newIntegrationForm.getByRole('alert')).toContainText('plain http is accepted only for loopback');
    // Nothing typed is lost.
    await expect(oauth.newIntegrationForm.getByLabel('Name')).toHaveValue('Bad redirect');

    await oauth.fillNewIntegration({
      name: 'Party Mix',
      description: 'Plays the party mix in every room',
      category: 'Music',
      redirectUris: [REDIRECT, 'https://partymix.example.com/cb'],
    });
    await expect(oauth.secretCallout).toBeVisible();
    const secret = (await oauth.secretCallout.getByTestId('client-secret').textContent())!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.ready.urls.console });
    await oauth.secretCallout.getByRole('button', { name: 'Copy client secret' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await oauth.secretCallout.getByRole('button', { name: 'Done' }).click();
    await expect(oauth.secretCallout).toBeHidden();
    await expect(page.getByText(secret)).toHaveCount(0);

    const card = oauth.integration('Party Mix');
    const uris = card.getByRole('list', { name: 'Redirect URLs of Default' });
    await expect(uris.getByRole('listitem').filter({ hasText: REDIRECT })).toContainText(
      'production would reject this',
    );
    await expect(uris.getByRole('listitem').filter({ hasText: 'partymix.example.com' })).not.toContainText(
      'production would reject this',
    );
  });

  test('the browser flow through sign-in and consent: a wrong password, then Deny, then Allow', async ({
    consolePage,
    page,
  }) => {
    const oauth = new OAuthPage(page);
    await consolePage.waitUntilLive();
    await oauth.open();
    await oauth.fillNewIntegration({
      name: 'Kitchen Radio',
      description: 'Radio for the kitchen',
      category: 'Radio',
      redirectUris: [REDIRECT],
    });
    await oauth.secretCallout.getByRole('button', { name: 'Done' }).click();

    const denied = new LoginPages(await oauth.startFlow('Kitchen Radio'));
    await denied.signIn('demo', 'wrong');
    await expect(denied.page.getByRole('alert')).toHaveText('Wrong username or password.');
    await denied.signIn('demo', 'demo');
    await expect(
      denied.page.getByRole('heading', { name: 'Allow Kitchen Radio to control your household?' }),
    ).toBeVisible();
    await expect(denied.page.getByText('Radio for the kitchen')).toBeVisible();
    await expect(denied.page.getByText('playback-control-all')).toBeVisible();
    await denied.decide('Deny');
    await denied.page.waitForURL(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
    const deniedUrl = new URL(denied.page.url());
    expect(deniedUrl.searchParams.get('error')).toBe('access_denied');
    expect(deniedUrl.searchParams.get('state')).toBeTruthy();
    await expect(oauth.flows.getByRole('button').first()).toContainText('denied');
    await expect(oauth.step('login')).toHaveCount(2);
    await expect(oauth.step('consent')).toContainText('pressed Deny');
    await denied.page.close();

    const allowed = new LoginPages(await oauth.startFlow('Kitchen Radio'));
    await allowed.signIn('demo', 'demo');
    await allowed.decide('Allow');
    await allowed.page.waitForURL(/\?code=/);
    expect(new URL(allowed.page.url()).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(oauth.flows.getByRole('button').first()).toContainText('code issued');
    await expect(oauth.step('redirect')).toContainText('code and state');
    // What the app does next, ready to paste: the token request with this flow's verifier.
    const tokenRequest = oauth.inspector.getByRole('group', { name: 'Token request' });
    await expect(tokenRequest.locator('pre')).toContainText(`'redirect_uri=${REDIRECT}'`);
    await expect(tokenRequest.locator('pre')).toContainText('/login/v3/oauth/access');
    await expect(tokenRequest.locator('pre')).toContainText(/'code_verifier=[A-Za-z0-9_-]{43}'/);
    await expect(tokenRequest).toContainText(/within the (10 min|9 min \d+ s) it has left/);
    await expect(tokenRequest.getByRole('button', { name: 'Copy token request' })).toBeVisible();
    const card = oauth.integration('Kitchen Radio');
    await expect(card.getByRole('table', { name: 'Grants and tokens' })).toContainText('code not exchanged yet');
    // The code lives 10 minutes; once it ran out unused the grant can never give a token.
    const grantRow = card.getByRole('row').filter({ hasText: 'Grant for demo' }).first();
    await expect(grantRow.locator('.badge')).toHaveText('active');
    await consolePage.advance('10 min');
    await expect(grantRow).toContainText('code expired unused');
    await expect(tokenRequest).toContainText('The code expired unused');
    await expect(tokenRequest.locator('pre')).toHaveCount(0);
    await expect(grantRow.locator('.badge')).toHaveText('expired');
    await expect(grantRow.getByRole('button', { name: 'Revoke grant' })).toBeDisabled();

    // The code_verifier the token request needs stays with the flow, also after a visit to another area.
    const startedHere = oauth.inspector.getByLabel('Started here');
    const verifier = (await startedHere.locator('code').textContent())!;
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await consolePage.area('Queues').click();
    await oauth.open();
    await expect(startedHere.locator('code')).toHaveText(verifier);
    await expect(startedHere.getByRole('button', { name: 'Copy code verifier' })).toBeVisible();
  });

  test('the sample flow in one click: code, token, households, every step on the timeline; 24 h later the access token has expired', async ({
    consolePage,
    page,
  }) => {
    const oauth = new OAuthPage(page);
    await consolePage.waitUntilLive();
    // A stopped clock keeps "expires in 24 h" exact however slow the machine is.
    await consolePage.setSpeed('Stop');
    await oauth.open();
    const login = new LoginPages(await oauth.runSampleFlow());
    await login.signIn('demo', 'demo');
    await login.decide('Allow');
    await expect(login.page.getByRole('heading', { name: 'The sample integration is signed in' })).toBeVisible();
    await expect(login.page.getByRole('list', { name: 'Households' })).toHaveText('Demo Household');

    for (const kind of ['authorize', 'login', 'consent', 'redirect', 'callback', 'token'] as const) {
      await expect(oauth.step(kind)).toHaveCount(1);
    }
    // Listing the households, then subscribing to events (docs/events.md): every call is on the timeline.
    await expect(oauth.step('api_call').filter({ hasText: '/api/v1/households' }).first()).toBeVisible();
    await expect(oauth.step('api_call').filter({ hasText: '/subscription' }).first()).toBeVisible();
    await oauth.step('token').getByText('code exchanged for tokens').click();
    await expect(oauth.step('token').getByText('Authorization header')).toBeVisible();
    await expect(oauth.step('token').getByText('PKCE: code_verifier matches the code_challenge')).toBeVisible();

    const card = await oauth.expand('Sample integration');
    const access = oauth.tokens(card, 'access').first();
    await expect(access).toHaveAttribute('data-status', 'active');
    await expect(access).toContainText('expires in 24 h');
    // Issued today: the time of day alone.
    await expect(access.getByRole('cell').first()).toHaveText(/^\d\d:\d\d:\d\d$/);
    await consolePage.advance('24 h');
    await expect(access).toHaveAttribute('data-status', 'expired');
    await expect(access).toContainText('expired');
    // A day later it was issued yesterday, and says so with its date.
    await expect(access.getByRole('cell').first()).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await consolePage.setSpeed('1×');

    const refresh = oauth.tokens(card, 'refresh').first();
    await refresh.getByRole('button', { name: /^Revoke/ }).click();
    await expect(refresh).toHaveAttribute('data-status', 'revoked');
    // Why, in words beside the badge; and nothing left to revoke.
    await expect(refresh).toContainText('revoked from the console');
    await expect(refresh.getByRole('button', { name: /^Revoke/ })).toBeDisabled();
  });

  test('at 1024 px a flow started comes into view, its timeline filling in (audit-ui W4)', async ({
    consolePage,
    page,
  }) => {
    const oauth = new OAuthPage(page);
    await consolePage.waitUntilLive();
    await page.setViewportSize({ width: 1024, height: 768 });
    await oauth.open();
    // One column: the inspector sits under the integrations, its head at the window's foot.
    const inspector = page.getByRole('region', { name: 'Flow inspector' });
    expect((await inspector.boundingBox())!.y).toBeGreaterThan(600);
    const integrations = page.getByRole('region', { name: 'Integrations' });
    const header = page.locator('header').filter({ has: page.getByRole('heading', { level: 1, name: 'OAuth' }) });
    await tabOutOf(header);
    expect(await holdsFocus(integrations)).toBe(true);
    const login = new LoginPages(await oauth.runSampleFlow());
    await expect(page.getByRole('list', { name: 'Timeline' })).toBeInViewport();
    // First for Tab too (and a screen reader), not only on screen: WCAG 2.4.3.
    await tabOutOf(header);
    expect(await holdsFocus(inspector)).toBe(true);
    await login.signIn('demo', 'demo');
    await login.decide('Allow');
    await expect(oauth.step('token')).toBeInViewport();
    // What the copy button beside "Started here" copies is said on screen, not only to a screen reader.
    await expect(oauth.inspector.getByLabel('Started here')).toContainText('authorize URL');
    // SHOTS=<dir>: the page as it then is, to look at.
    if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/oauth-1024-flow.png` });
    await login.page.close();

    // Named again from its grant: the inspector goes first in one column, and the keyboard stays
    // on the button pressed (a reorder that moved nodes dropped it on <body>: review of W4).
    await page.goto(
      page
        .url()
        .replace(/([?&])flow=[^&#]*&?/, '$1')
        .replace(/[?&]$/, ''),
    );
    await consolePage.waitUntilLive();
    const above = async () => (await inspector.boundingBox())!.y < (await integrations.boundingBox())!.y;
    expect(await above()).toBe(false);
    // This flow's grant, not another integration's (the specs share a console).
    const sample = await oauth.expand('Sample integration');
    const showFlow = sample.getByRole('button', { name: 'Show flow' }).last();
    await showFlow.focus();
    await page.keyboard.press('Enter');
    await expect.poll(above).toBe(true);
    await expect(showFlow).toBeFocused();
  });

  test('auto-approve skips the sign-in and consent pages', async ({ consolePage, page }) => {
    const oauth = new OAuthPage(page);
    await consolePage.waitUntilLive();
    await oauth.open();
    await oauth.setting('Auto-approve').check();
    await expect(oauth.setting('Auto-approve')).toBeChecked();
    const tab = await oauth.runSampleFlow();
    await expect(tab.getByRole('list', { name: 'Households' })).toHaveText('Demo Household');
    await expect(oauth.step('consent')).toContainText('auto-approved');
    await oauth.setting('Auto-approve').uncheck();
    await expect(oauth.setting('Auto-approve')).not.toBeChecked();
  });

  test('a midnight the running clock passes between pushes dates what came before it', async ({
    consolePage,
    page,
    served,
  }) => {
    const oauth = new OAuthPage(page);
    await consolePage.waitUntilLive();
    await oauth.open();
    await adminApi(served.ready, 'PATCH', '/settings', { autoApprove: true });
    try {
      const tab = await oauth.runSampleFlow();
      await expect(tab.getByRole('list', { name: 'Households' })).toHaveText('Demo Household');
      const flow = oauth.flows.getByRole('button').first();
      // Stopped two seconds before the engine's next midnight: the flow is today's, its time alone.
      const { now } = await adminApi<{ now: number }>(served.ready, 'POST', '/clock', { speed: 0 });
      const midnight = new Date(now);
      midnight.setHours(24, 0, 0, 0);
      await adminApi(served.ready, 'POST', '/clock', { advanceMs: midnight.getTime() - now - 2_000 });
      await expect(flow).toContainText(/\d\d:\d\d:\d\d · sample/);
      await expect(flow).not.toContainText(/\d{4}-\d\d-\d\d \d\d:/);
      // Run at 10×: midnight passes in 0.2 s with no push from the engine, and the flow is yesterday's.
      await adminApi(served.ready, 'POST', '/clock', { speed: 10 });
      await expect(flow).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d · sample/);
    } finally {
      await adminApi(served.ready, 'POST', '/clock', { speed: 1 });
      await adminApi(served.ready, 'PATCH', '/settings', { autoApprove: false });
    }
  });

  test('production parity turns the sample flow off and says why, instead of opening an error page', async ({
    consolePage,
    page,
  }) => {
    const oauth = new OAuthPage(page);
    await consolePage.waitUntilLive();
    await oauth.open();
    const sample = page.getByRole('button', { name: 'Run sample flow' });
    await oauth.setting('Production parity').check();
    try {
      await expect(sample).toBeDisabled();
      await expect(sample).toHaveAccessibleDescription(/loopback callback, which parity refuses/);
    } finally {
      // The worker's console is shared with the specs after this one.
      await oauth.setting('Production parity').uncheck();
    }
    await expect(sample).toBeEnabled();
  });
});
