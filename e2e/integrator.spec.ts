/**
 * The integrator's path (docs/login-service.md): an OAuth flow for an integration whose
 * redirect URI is a real-looking https URL, run in the user's own browser tab. Nothing leaves the
 * machine — every request to a host other than loopback is blocked and counted, and none is made
 * to myapp.example.com — the captured page holds no code, the console reveals it once with the
 * token request as curl, the code trades for tokens with that curl's parameters, and the command
 * bar then sends as that integration.
 */
import type { Request } from '@playwright/test';
import { adminApi } from './admin-api';
import { expect, test } from './fixtures';
import { LoginPages, OAuthPage } from './pages/oauth-page';
import { PlayerPage } from './pages/player-page';

const REDIRECT = 'https://myapp.example.com/cb';

const isLoopback = (url: string): boolean => {
  const { protocol, hostname } = new URL(url);
  if (!/^https?:$|^wss?:$/.test(protocol)) return true;
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
};

/** The words of a curl line written by the console (each argument single-quoted, or a `"$VAR"`). */
function curlParams(curl: string): { url: string; user: string; form: URLSearchParams } {
  const form = new URLSearchParams();
  for (const match of curl.matchAll(/--data-urlencode '([^=']+)=([^']*)'/g)) form.append(match[1]!, match[2]!);
  for (const match of curl.matchAll(/--data-urlencode ([a-z_]+)=([A-Za-z0-9_]+)(?:\s|$)/g))
    form.append(match[1]!, match[2]!);
  const user = /-u '([^']+)':/.exec(curl)![1]!;
  const url = [...curl.matchAll(/'(https?:\/\/[^']+)'/g)].at(-1)![1]!;
  return { url, user: decodeURIComponent(user), form };
}

test('a flow to https://myapp.example.com/cb: nothing leaves the machine, the code is revealed once and trades for tokens; the command bar sends as the integration', async ({
  consolePage,
  page,
  context,
  served,
}) => {
  test.setTimeout(90_000);
  const outbound: string[] = [];
  const track = (request: Request) => {
    if (!isLoopback(request.url())) outbound.push(request.url());
  };
  context.on('request', track);
  // Every page of the context, the console's and the sign-in tab: a non-loopback request is stopped here.
  await context.route(
    (url) => !isLoopback(url.toString()),
    (route) => route.abort('blockedbyclient'),
  );

  const oauth = new OAuthPage(page);
  await consolePage.waitUntilLive();
  await oauth.open();
  // Off by default (the platform's login service sends every redirect): the integrator turns it on.
  await expect(oauth.setting('Capture redirects')).not.toBeChecked();
  await expect(oauth.setting('Capture redirects')).toHaveAccessibleDescription(/takes each code to its redirect URL/);
  await oauth.setting('Capture redirects').check();
  await expect(oauth.setting('Capture redirects')).toBeChecked();
  await expect(oauth.setting('Capture redirects')).toHaveAccessibleDescription(/never leaves the machine/);
  await oauth.fillNewIntegration({
    name: 'My App',
    description: 'An app at a real URL',
    category: 'Music',
    redirectUris: [REDIRECT],
  });
  const secret = (await oauth.secretCallout.getByTestId('client-secret').textContent())!;
  await oauth.secretCallout.getByRole('button', { name: 'Done' }).click();

  const tab = new LoginPages(await oauth.startFlow('My App'));
  await tab.signIn('demo', 'demo');
  await tab.decide('Allow');
  await expect(tab.page.getByRole('heading', { name: 'Redirect captured' })).toBeVisible();
  expect(new URL(tab.page.url()).origin).toBe(served.ready.urls.login);
  expect(new URL(tab.page.url()).searchParams.has('code')).toBe(false);
  const capturedPage = await tab.page.content();
  // A reload sends nothing anywhere either.
  await tab.page.reload();
  await expect(tab.page.getByRole('heading', { name: 'Redirect captured' })).toBeVisible();

  await page.bringToFront();
  const captured = oauth.captured;
  await expect(captured).toContainText('Redirect captured — the code never left this machine.');
  await expect(captured).toContainText(REDIRECT);
  await oauth.step('callback').locator('summary').click();
  await expect(oauth.step('callback')).toContainText('for one reveal');
  // The sign-in and consent forms, as sent, the password masked.
  await oauth.step('login').locator('summary').click();
  await expect(oauth.step('login').getByRole('group', { name: 'Request body' })).toContainText('username=demo');
  await expect(oauth.step('login').getByRole('group', { name: 'Request body' })).not.toContainText('password=demo');

  await captured.getByRole('button', { name: 'Reveal code' }).click();
  const code = (await captured.getByTestId('revealed-code').textContent())!;
  expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const curl = (await captured.getByTestId('revealed-curl').textContent())!;
  expect(curl).toContain(`'code=${code}'`);
  expect(curl).toContain(`'redirect_uri=${REDIRECT}'`);
  await expect(captured.getByRole('button', { name: 'Copy token request with the code' })).toBeVisible();
  expect(capturedPage).not.toContain(code);
  if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT });

  // Once: the engine refuses a second reveal, and the page says so after a reload.
  await expect(
    adminApi(served.ready, 'POST', `/oauth/flows/${await flowIdOf(served.ready)}/reveal-code`),
  ).rejects.toThrow(/409.*revealed already/);
  await page.reload();
  await expect(oauth.captured).toContainText('The code was revealed already');
  await expect(oauth.captured.getByRole('button', { name: 'Reveal code' })).toHaveCount(0);

  // The app's next request, made with the curl's parameters (the secret from where the app keeps it).
  const { url, user, form } = curlParams(curl);
  expect(url).toBe(`${served.ready.urls.login}/login/v3/oauth/access`);
  expect(form.get('code')).toBe(code);
  const answer = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(user)}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: form,
  });
  const tokens = (await answer.json()) as { access_token?: string };
  expect(answer.status, JSON.stringify(tokens)).toBe(200);
  expect(tokens.access_token).toBeTruthy();

  // The command bar sends as that integration.
  const player = new PlayerPage(page);
  await player.open('Kitchen');
  await expect(player.commandBar.getByLabel('Send as').getByRole('option', { name: /^My App/ })).toHaveCount(1);
  await player.commandBar.getByLabel('Send as').selectOption({
    label: (await player.commandBar
      .getByLabel('Send as')
      .getByRole('option', { name: /^My App/ })
      .textContent())!,
  });
  await player.commandBar.getByLabel('Example request').selectOption({ label: 'List households' });
  await expect(player.commandBar.getByLabel('Path')).toHaveValue('/api/v1/households');
  await player.commandBar.getByRole('button', { name: 'Send' }).click();
  await expect(player.answer).toContainText('200');
  await expect(player.answer.getByTestId('sent-as')).toHaveText('sent as My App');
  await expect(player.answer.getByRole('button', { name: 'Copy this call as curl' })).toBeVisible();

  expect(outbound).toEqual([]);
  // The console is the worker's: the next test finds the default again.
  await adminApi(served.ready, 'PATCH', '/settings', { captureRedirects: false });
});

async function flowIdOf(ready: Parameters<typeof adminApi>[0]): Promise<string> {
  const flows = await adminApi<{ id: string; integrationName: string | null }[]>(ready, 'GET', '/oauth/flows');
  return flows.find((f) => f.integrationName === 'My App')!.id;
}
