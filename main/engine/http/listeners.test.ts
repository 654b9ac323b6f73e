import { describe, expect, it } from 'vitest';
import { startTestEngine } from '../testing/http.js';

describe('where the console listens', () => {
  it('refuses to start off loopback, where any machine could read the admin token from its page', async () => {
    await expect(startTestEngine({ host: '0.0.0.0' })).rejects.toThrow(/loopback only/);
  });

  it('listens on a loopback name it is given', async () => {
    const engine = await startTestEngine({ host: 'localhost' });
    expect(engine.urls.console).toMatch(/^http:\/\/localhost:\d+$/);
    await engine.close();
  });
});
