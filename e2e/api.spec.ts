import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenApiDocument } from '../main/engine/api/openapi-types';
import { PROJECT_ROOT } from '../main/testing/serve-process';
import { ApiPage } from './pages/api-page';
import { expect, test } from './fixtures';

test.describe('the API area', () => {
  test('shows every call the engine describes, filters them, and opens one to its fields', async ({
    consolePage,
    page,
    served,
  }) => {
    await consolePage.waitUntilLive();
    const response = await fetch(`${served.ready.urls.console}/admin/api/openapi.json`, {
      headers: { authorization: `Bearer ${served.ready.adminToken}` },
    });
    const description = (await response.json()) as OpenApiDocument;
    const total = Object.values(description.paths).reduce((sum, verbs) => sum + Object.keys(verbs).length, 0);
    const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(description.info.version).toBe(version);

    const api = new ApiPage(page);
    await page.keyboard.press('6');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin API' })).toBeVisible();
    await expect(api.count).toHaveText(`${total} calls`);
    await expect(api.group('queues')).toBeVisible();

    await api.filter.fill('post sample tracks');
    await expect(api.count).toHaveText('1 call');
    const generate = api.operation('queues.items.generate');
    await generate.locator('summary').click();
    await expect(generate.getByRole('table')).toContainText('id');
    await expect(generate.locator('pre')).toContainText('"afterItemId"');
    if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT, fullPage: false });

    // Escape leaves the filter and clears it.
    await api.filter.focus();
    await page.keyboard.press('Escape');
    await expect(api.filter).toHaveValue('');
    await expect(api.count).toHaveText(`${total} calls`);
  });
});
