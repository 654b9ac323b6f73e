/**
 * The floor of a persisted token exchange on this machine, for token-exchange.bench.ts to measure
 * beside the console's: a bare fastify route that does only what any authorization_code exchange
 * that keeps its tokens must do, and nothing the console adds (no service app, no grant checklist,
 * no flow inspector, no client registry; the client's secret compared as a string).
 *
 * Per request: the form read, the code's hash looked up, the code marked used, two tokens minted
 * (32 random bytes each), hashed and inserted, the JSON answer. Requests that arrive in one turn
 * share one transaction, as the console's token endpoint does (group commit), on a file in WAL mode
 * with synchronous=NORMAL, as the console's store opens its database. The two tables are the
 * console's `authorization_codes` and `tokens` with their keys and indexes (migrations/002_login.ts),
 * without the columns this path never writes.
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';

export interface TokenFloor {
  url: string;
  authorization: string;
  codes: string[];
  close(): Promise<void>;
}

const CLIENT = 'floor-client';
const SECRET = 'floor-secret';
const CODE_MS = 600_000;
const ACCESS_MS = 86_400_000;

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();
const token = (): string => randomBytes(32).toString('base64url');

interface Answer {
  status: number;
  body: object;
}

export async function startTokenFloor(dir: string, codeCount: number, redirectUri: string): Promise<TokenFloor> {
  const db = new Database(join(dir, 'floor.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec(`
    CREATE TABLE grants (id TEXT PRIMARY KEY, client_id TEXT NOT NULL);
    CREATE TABLE authorization_codes (
      code_hash BLOB PRIMARY KEY,
      grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
      redirect_uri TEXT NOT NULL,
      issued_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX authorization_codes_by_grant ON authorization_codes(grant_id);
    CREATE TABLE tokens (
      id INTEGER PRIMARY KEY,
      grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
      token_hash BLOB NOT NULL UNIQUE,
      hint TEXT NOT NULL,
      issued_at INTEGER NOT NULL,
      expires_at INTEGER
    );
    CREATE INDEX tokens_by_grant ON tokens(grant_id, issued_at);
  `);
  const addGrant = db.prepare('INSERT INTO grants (id, client_id) VALUES (?, ?)');
  const addCode = db.prepare(
    'INSERT INTO authorization_codes (code_hash, grant_id, redirect_uri, issued_at, expires_at) VALUES (?, ?, ?, ?, ?)',
  );
  const findCode = db.prepare<
    [Buffer],
    { grant_id: string; redirect_uri: string; expires_at: number; used_at: number | null }
  >('SELECT grant_id, redirect_uri, expires_at, used_at FROM authorization_codes WHERE code_hash = ?');
  const useCode = db.prepare('UPDATE authorization_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL');
  const addToken = db.prepare(
    'INSERT INTO tokens (grant_id, kind, token_hash, hint, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
  );

  const codes: string[] = [];
  db.transaction(() => {
    const now = Date.now();
    for (let i = 0; i < codeCount; i++) {
      const code = token();
      addGrant.run(`grant-${i}`, CLIENT);
      addCode.run(sha256(code), `grant-${i}`, redirectUri, now, now + CODE_MS);
      codes.push(code);
    }
  })();

  const authorization = `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`;
  const exchange = (body: string, presented: string | undefined): Answer => {
    if (presented !== authorization) return { status: 401, body: { error: 'invalid_client' } };
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'authorization_code')
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    const hash = sha256(form.get('code') ?? '');
    const now = Date.now();
    const code = findCode.get(hash);
    if (!code || code.used_at !== null || code.expires_at <= now || code.redirect_uri !== form.get('redirect_uri'))
      return { status: 400, body: { error: 'invalid_grant' } };
    useCode.run(now, hash);
    const access = token();
    const refresh = token();
    addToken.run(code.grant_id, 'access', sha256(access), access.slice(0, 6), now, now + ACCESS_MS);
    addToken.run(code.grant_id, 'refresh', sha256(refresh), refresh.slice(0, 6), now, null);
    return {
      status: 200,
      body: {
        access_token: access,
        token_type: 'Bearer',
        expires_in: ACCESS_MS / 1000,
        refresh_token: refresh,
        scope: 'playback-control-all',
      },
    };
  };

  interface Waiting {
    body: string;
    authorization: string | undefined;
    answer(answer: Answer): void;
  }
  let queue: Waiting[] = [];
  const commitTurn = db.transaction((batch: Waiting[]) => batch.map((w) => exchange(w.body, w.authorization)));
  const drain = () => {
    const batch = queue;
    queue = [];
    const answers = commitTurn(batch);
    batch.forEach((waiting, i) => waiting.answer(answers[i]!));
  };

  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.post('/token', (request, reply) => {
    const waiting: Waiting = {
      body: typeof request.body === 'string' ? request.body : '',
      authorization: request.headers.authorization,
      answer: ({ status, body }) =>
        void reply.code(status).header('cache-control', 'no-store').header('pragma', 'no-cache').send(body),
    };
    if (queue.push(waiting) === 1) setImmediate(drain);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/token`,
    authorization,
    codes,
    async close() {
      await app.close();
      db.close();
    },
  };
}
