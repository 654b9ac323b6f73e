/**
 * Journals the control API where it executes, whoever calls it: the command bar (the console's
 * token or an integration's grant), an integration with its own token, the guided demo, a
 * scenario. Only calls that got past the token check and may change something (POST) are kept.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Journal, JournalTicket } from './journal.js';
import type { JournaledControlCall } from './types.js';
import { withTokenRefs } from './secrets.js';

export interface ControlJournalDeps {
  /** The queue of this console whose access token this is, if any. */
  tokenOwner(token: string): string | undefined;
}

export function journalControlCalls(app: FastifyInstance, journal: Journal, deps: ControlJournalDeps): void {
  const tickets = new WeakMap<
    FastifyRequest,
    { ticket: JournalTicket; known: Omit<JournaledControlCall, 'seq' | 'at'>; sessionId?: string }
  >();
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'POST' || !request.access) return;
    // Known as the call begins (its tokens turned into references once): recorded from this when it ends.
    const known: Omit<JournaledControlCall, 'seq' | 'at'> = {
      kind: 'control',
      method: request.method,
      path: request.url,
      ...(request.body === undefined || request.body === null
        ? {}
        : { body: withTokenRefs(request.body, deps.tokenOwner) }),
      status: 0,
      sender: request.access.clientId ?? 'unknown',
    };
    tickets.set(request, { ticket: journal.begin(`${request.method} ${request.url.split('?')[0]}`, known), known });
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    const pending = tickets.get(request);
    if (pending && typeof payload === 'string' && payload.includes('"sessionId"')) {
      try {
        const answer = JSON.parse(payload) as { sessionId?: unknown };
        if (typeof answer.sessionId === 'string') pending.sessionId = answer.sessionId;
      } catch {
        // not JSON: no session to name
      }
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const pending = tickets.get(request);
    if (!pending) return;
    tickets.delete(request);
    journal.recordControl(pending.ticket, {
      ...pending.known,
      status: reply.statusCode,
      ...(pending.sessionId ? { sessionId: pending.sessionId } : {}),
    });
  });
}
