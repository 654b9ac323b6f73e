/**
 * The attack on the traffic log's file (docs/contract/console.md §9): after an OAuth flow with
 * PKCE, an integration created, a token refresh and queue calls carrying tokens and API keys in
 * every place a client puts them, the bytes of `traffic.sqlite` hold none of the secrets the test
 * saw. Reveal still shows them while the console holds them in memory, and says plainly when it
 * no longer does (after a restart).
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QueueSummary } from '../api/queue-types.js';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { grantSecretValues, pkceGrantAndRefresh } from '../testing/oauth.js';
import { tempDirs } from '../testing/temp-dirs.js';
import { TRAFFIC_LOG_FILE } from './log/index.js';
import { REVEAL_GONE } from './present.js';

const freshDir = tempDirs('cqc-traffic-secrets-');

/** Every secret the scripted client saw or sent, by what it is. */
async function secretTraffic(engine: Engine): Promise<Record<string, string>> {
  const grant = await pkceGrantAndRefresh(engine, 'v3rifier-'.padEnd(64, 'k'));

  const queue = (
    await admin(engine, 'POST', '/queues', {
      name: 'Secret queue',
      items: [{ track: { name: 'One', mediaUrl: 'https://example.com/1.mp3' } }],
    })
  ).body as QueueSummary;
  await fetch(`${queue.queueBaseUrl}itemWindow?reason=load`, { headers: { authorization: queue.httpAuthorization } });
  // Where else clients put keys: query parameters and an API key header.
  const inQuery = {
    token: 'qtok-0123456789abcdef',
    api_key: 'qkey-0123456789abcdef',
    apikey: 'qkey2-0123456789abcdef',
    access_token: 'qat-0123456789abcdef',
  };
  await fetch(`${queue.queueBaseUrl}version?${new URLSearchParams(inQuery)}`);
  const apiKey = 'hdr-key-0123456789abcdef';
  await fetch(`${queue.queueBaseUrl}version`, { headers: { 'x-api-key': apiKey } });
  return {
    adminToken: engine.adminToken,
    ...grantSecretValues(grant),
    queueToken: queue.accessToken,
    apiKey,
    ...inQuery,
  };
}

/** The log's file as bytes, and the text of every blob in it (a secret may straddle two of SQLite's pages on disk). */
function logContents(dataDir: string): string[] {
  const file = join(dataDir, TRAFFIC_LOG_FILE);
  const contents = [readFileSync(file).toString('latin1')];
  if (existsSync(`${file}-journal`)) contents.push(readFileSync(`${file}-journal`).toString('latin1'));
  const db = new Database(file, { readonly: true });
  try {
    for (const { summary, detail } of db.prepare('SELECT summary, detail FROM traffic_segments').all() as {
      summary: Buffer;
      detail: Buffer;
    }[]) {
      contents.push(summary.toString('utf8'), detail.toString('utf8'));
    }
    for (const body of db.prepare('SELECT body FROM traffic_bodies').pluck().all()) contents.push(String(body));
  } finally {
    db.close();
  }
  return contents;
}

const entryOf = async (engine: Engine, query: string, reveal = false) => {
  const [found] = (await admin(engine, 'GET', `/traffic?${query}`)).body as TrafficEntry[];
  expect(found, query).toBeDefined();
  return (await admin(engine, 'GET', `/traffic/${found!.id}${reveal ? '?reveal=true' : ''}`)).body as TrafficEntry;
};

describe('secrets in the traffic log', () => {
  it('never reach its file, and are revealed only while the console holds them in memory', async () => {
    const dataDir = freshDir();
    let engine = await startTestEngine({ dataDir });
    let secrets: Record<string, string>;
    let refresh: TrafficEntry;
    try {
      secrets = await secretTraffic(engine);
      // Every secret went through the log (it read them back for this test, revealed).
      refresh = await entryOf(engine, 'target=login&text=grant_type%3Drefresh_token', true);
      expect(refresh).toMatchObject({ revealed: true, redacted: false });
      expect(refresh.requestBody).toContain(`refresh_token=${secrets.refreshToken}`);
      expect(JSON.parse(refresh.responseBody!)).toMatchObject({
        access_token: secrets.refreshedAccess,
        refresh_token: secrets.refreshedRefresh,
      });
      const created = await entryOf(engine, 'target=console&text=Test%20app', true);
      expect(JSON.parse(created.responseBody!)).toMatchObject({ clientSecret: secrets.clientSecret });
      expect(created.requestHeaders.authorization).toBe(`Bearer ${secrets.adminToken}`);
      const keyed = await entryOf(engine, 'target=cloudQueue&text=api_key', true);
      expect(keyed.url).toContain(`api_key=${secrets.api_key}`);
      // Not revealed, it is masked as ever.
      const masked = await entryOf(engine, 'target=login&text=grant_type%3Drefresh_token');
      expect(masked).toMatchObject({ redacted: true, revealed: false });
      expect(masked.requestBody).not.toContain(secrets.refreshToken);
      expect(masked.revealNote).toBeUndefined();

      // While the console runs (what it wrote so far is in the file: reads flush it)...
      for (const text of logContents(dataDir))
        for (const [what, secret] of Object.entries(secrets))
          expect(text.includes(secret), `${what} in ${TRAFFIC_LOG_FILE}`).toBe(false);
    } finally {
      await engine.close();
    }
    // ...and after it stopped.
    const contents = logContents(dataDir);
    for (const text of contents)
      for (const [what, secret] of Object.entries(secrets))
        expect(text.includes(secret), `${what} in ${TRAFFIC_LOG_FILE}`).toBe(false);
    // The entries are there, masked: this is not a log that kept nothing.
    expect(contents.some((text) => text.includes(`Bearer ${engine.adminToken.slice(0, 4)}•••`))).toBe(true);

    engine = await startTestEngine({ dataDir });
    try {
      // A new start holds nothing of the last one's secrets: reveal says so, and shows them masked.
      const again = (await admin(engine, 'GET', `/traffic/${refresh.id}?reveal=true`)).body as TrafficEntry;
      expect(again).toMatchObject({ redacted: true, revealed: false, revealNote: REVEAL_GONE });
      expect(again.requestBody).not.toContain(secrets.refreshToken);
      expect(again.requestHeaders.authorization).toMatch(/^Basic .{4}•••$/);
    } finally {
      await engine.close();
    }
  });
});
