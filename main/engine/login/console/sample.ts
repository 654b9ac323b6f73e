/**
 * The sample integration (issue: one click runs authorize → sign-in → consent → code → token →
 * list households). It is registered on the console's own callback URL, kept in step with the
 * console's port on every start, and its callback is the integration's server side: it checks
 * the state, exchanges the code over real HTTP with Basic auth and PKCE, and lists the
 * households with the token. Its secret lives only in memory; each start gives it a new one.
 *
 * It also receives events (docs/events.md), as an integration's event handler would: its key's
 * event callback URL is a route of its own on the console listener, it subscribes to its
 * households' groups and to each group's playback after the token exchange, checks the signature
 * of every event, and lists the newest it received on a page of its own.
 */
import type { FastifyInstance } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { EVENT_HEADERS, eventSignature } from '../../event-delivery/signature.js';
import { OAUTH_SCOPE, type FlowOrigin, type StartedFlow } from '../../api/oauth-types.js';
import type { ServiceUrls } from '../../api/types.js';
import { basicHeader } from '../client-auth/basic-auth.js';
import { escapeHtml as e, layout, pageHeaders } from '../endpoints/pages.js';
import type { FlowRecorder } from '../inspector/flow-recorder.js';
import type { IntegrationManager } from '../integrations/integrations.js';
import { Params, withQuery } from '../params.js';
import { AUTHORIZE_PATH, SAMPLE_CALLBACK_PATH, TOKEN_PATH } from '../paths.js';
import { hintOf, mask, maskSecretParams, randomSecret, s256 } from '../secrets.js';
import type { FlowStarts } from './flow-starts.js';

export const SAMPLE_NAME = 'Sample integration';
/** The sample's event callback, on the console listener. */
export const SAMPLE_EVENTS_PATH = '/sample/events';
/** Events its page lists, the newest. */
const MAX_SAMPLE_EVENTS = 50;
const MAX_EVENT_BODY = 64 * 1024;
/** Events it remembers having taken, to refuse one sent again (a replay): more than any run sends. */
const MAX_SEEN_EVENTS = 10_000;

/** One event as the sample received it. */
export interface SampleEvent {
  /** 1 for the first it received in this run. */
  n: number;
  seqId: string;
  namespace: string;
  type: string;
  target: string;
  householdId: string;
  signatureValid: boolean;
  /** Signed, but a sequence id this receiver had already taken for that target: refused (409). */
  replayed: boolean;
  /** The start of the body, as received. */
  body: string;
}
const SAMPLE_DESCRIPTION =
  "The console's own sample app: one click runs the whole flow and lists your households with the token.";

interface SampleClient {
  integrationId: string;
  keyId: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface SampleDeps {
  manager: IntegrationManager;
  recorder: FlowRecorder;
  starts: FlowStarts;
  urls: () => ServiceUrls;
}

export class SampleIntegration {
  private client: SampleClient | null = null;
  private readonly events: SampleEvent[] = [];
  private received = 0;
  /** Subscription target and sequence id of each event taken, oldest first (a Set keeps its order). */
  private readonly seen = new Set<string>();

  constructor(private readonly deps: SampleDeps) {}

  /** Registers the sample (or brings it in step with the console's URL) and gives it a secret. */
  ensure(): SampleClient {
    const { manager } = this.deps;
    const redirectUri = `${this.deps.urls().console}${SAMPLE_CALLBACK_PATH}`;
    const existing = manager.list().find((i) => i.sample);
    if (!existing) {
      const created = manager.create(
        {
          name: SAMPLE_NAME,
          description: SAMPLE_DESCRIPTION,
          category: 'Sample',
          redirectUris: [redirectUri],
          keyName: 'Sample key',
          eventCallbackUrl: this.eventsUrl(),
        },
        { sample: true, skipRedirectChecks: true },
      );
      const key = created.keys[0]!;
      this.client = {
        integrationId: created.id,
        keyId: key.id,
        clientId: key.clientId,
        clientSecret: created.clientSecret,
        redirectUri,
      };
      return this.client;
    }
    const key = existing.keys[0] ?? manager.createKey(existing.id, { name: 'Sample key' }).key;
    if (key.redirectUris.length !== 1 || key.redirectUris[0]!.uri !== redirectUri)
      manager.replaceRedirectUris(key.id, [redirectUri]);
    // A new secret when this process has none for the key, or someone regenerated it meanwhile.
    if (
      this.client?.keyId !== key.id ||
      this.client.redirectUri !== redirectUri ||
      key.secretHint !== hintOf(this.client.clientSecret)
    ) {
      const issued = manager.regenerateSecret(existing.id, key.id);
      this.client = {
        integrationId: existing.id,
        keyId: key.id,
        clientId: key.clientId,
        clientSecret: issued.clientSecret,
        redirectUri,
      };
    }
    // Its events come to its own receiver, at the console's URL of this run (after the secret: they are signed with it).
    if (key.eventCallbackUrl !== this.eventsUrl())
      manager.updateKey(existing.id, key.id, { eventCallbackUrl: this.eventsUrl() });
    return this.client;
  }

  /** An event at the sample's callback: kept (the newest) with whether its signature holds; 401 when it does not. */
  receiveEvent(headers: IncomingHttpHeaders, body: unknown): number {
    const header = (name: string) => String(headers[name.toLowerCase()] ?? '');
    const values = {
      seqId: header(EVENT_HEADERS.seqId),
      namespace: header(EVENT_HEADERS.namespace),
      type: header(EVENT_HEADERS.type),
      targetType: header(EVENT_HEADERS.targetType),
      targetValue: header(EVENT_HEADERS.targetValue),
    };
    const client = this.client;
    // Checked as docs/events.md tells an integration to: from the headers, its client id and its secret.
    const expected = client ? eventSignature(values, client.clientId, client.clientSecret) : null;
    const signatureValid = expected !== null && sameText(expected, header(EVENT_HEADERS.signature));
    // A sequence id counts up per subscription: the same one again for the same target is a replay.
    const eventKey = `${values.namespace} ${values.targetType} ${values.targetValue} #${values.seqId}`;
    const replayed = signatureValid && this.seen.has(eventKey);
    if (signatureValid && !replayed) {
      this.seen.add(eventKey);
      if (this.seen.size > MAX_SEEN_EVENTS) this.seen.delete(this.seen.values().next().value!);
    }
    const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? '');
    this.events.push({
      n: ++this.received,
      seqId: values.seqId,
      namespace: values.namespace,
      type: values.type,
      target: `${values.targetType} ${values.targetValue}`,
      householdId: header(EVENT_HEADERS.householdId),
      signatureValid,
      replayed,
      body: text.length > 600 ? `${text.slice(0, 600)}…` : text,
    });
    if (this.events.length > MAX_SAMPLE_EVENTS) this.events.splice(0, this.events.length - MAX_SAMPLE_EVENTS);
    if (!signatureValid) return 401;
    return replayed ? 409 : 200;
  }

  /** The newest events received, newest first. */
  receivedEvents(): SampleEvent[] {
    return [...this.events].reverse();
  }

  private eventsUrl(): string {
    return `${this.deps.urls().console}${SAMPLE_EVENTS_PATH}`;
  }

  /**
   * Subscribes with the token to each household's groups and to each group's playback, as an
   * integration does once it is connected; says what it did in lines for the result page.
   */
  private async subscribe(accessToken: string, householdIds: string[]): Promise<string[]> {
    const control = `${this.deps.urls().control}/api/v1`;
    const post = (path: string) =>
      fetch(`${control}${path}`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
    const lines: string[] = [];
    try {
      for (const householdId of householdIds) {
        const groupsAnswer = await post(`/households/${encodeURIComponent(householdId)}/groups/subscription`);
        lines.push(`POST /api/v1/households/${householdId}/groups/subscription: ${groupsAnswer.status}`);
        const listed = await fetch(`${control}/households/${encodeURIComponent(householdId)}/groups`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
        const groups = listed.ok
          ? (((await listed.json()) as { groups?: { id: string; name: string }[] }).groups ?? [])
          : [];
        const statuses = await Promise.all(
          groups.map(
            async (g) =>
              `${g.name} ${(await post(`/groups/${encodeURIComponent(g.id)}/playback/subscription`)).status}`,
          ),
        );
        if (statuses.length > 0) lines.push(`POST …/playback/subscription for each group: ${statuses.join(', ')}`);
      }
    } catch (failure) {
      lines.push(`subscribing failed: ${(failure as Error).message}`);
    }
    return lines;
  }

  /** A new sample flow: its authorize URL with a fresh state and PKCE. */
  start(origin: FlowOrigin): Omit<StartedFlow, 'openedBy'> {
    const client = this.ensure();
    const state = randomSecret();
    const codeVerifier = randomSecret();
    const flowId = this.deps.recorder.start({
      origin,
      integrationId: client.integrationId,
      integrationName: SAMPLE_NAME,
      clientId: client.clientId,
    });
    this.deps.starts.add({
      flowId,
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      state,
      sample: true,
      codeVerifier,
    });
    const authorizeUrl = withQuery(`${this.deps.urls().login}${AUTHORIZE_PATH}`, {
      client_id: client.clientId,
      response_type: 'code',
      state,
      scope: OAUTH_SCOPE,
      redirect_uri: client.redirectUri,
      code_challenge: s256(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { flowId, authorizeUrl, redirectUri: client.redirectUri };
  }

  /** The sample's server side at its redirect URI; answers the page the browser lands on. */
  async callback(url: string): Promise<{ status: number; html: string }> {
    const { recorder, starts } = this.deps;
    const params = Params.fromUrl(url);
    const state = params.single('state');
    const started = state === undefined ? undefined : starts.byState(state);
    const client = this.client;
    if (!started?.sample || !client || started.clientId !== client.clientId) {
      return {
        status: 400,
        html: resultPage(
          'The sample integration does not know this state',
          [
            'A callback must come from a flow the sample started (the state protects against CSRF). Start it again from the console.',
          ],
          [],
        ),
      };
    }
    starts.forget(started.state);
    const { flowId } = started;
    const code = params.single('code');
    const error = params.single('error');
    recorder.step(flowId, {
      ok: code !== undefined,
      summary:
        code !== undefined
          ? 'sample integration received code and state'
          : `sample integration received error=${error ?? '(none)'}`,
      detail: {
        kind: 'callback',
        url: maskSecretParams(url),
        ...(code !== undefined ? { code: mask(code) } : {}),
        state: started.state,
        stateMatches: true,
        captured: false,
        ...(error !== undefined ? { error: { error, description: params.single('error_description') ?? '' } } : {}),
      },
    });
    if (code === undefined) {
      return {
        status: 200,
        html: resultPage(
          'The sample integration was not authorized',
          [`The login service answered error=${error ?? '(none)'}: ${params.single('error_description') ?? ''}`],
          [],
        ),
      };
    }

    const urls = this.deps.urls();
    const lines: string[] = [];
    let accessToken: string;
    try {
      const response = await fetch(`${urls.login}${TOKEN_PATH}`, {
        method: 'POST',
        headers: {
          authorization: basicHeader(client.clientId, client.clientSecret),
          'content-type': 'application/x-www-form-urlencoded;charset=utf-8',
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: client.redirectUri,
          code_verifier: started.codeVerifier ?? '',
        }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!response.ok || !body.access_token) {
        const message =
          `the token endpoint answered ${response.status} ${body.error ?? ''} ${body.error_description ?? ''}`.trim();
        recorder.step(flowId, {
          ok: false,
          summary: `sample: code exchange failed (${response.status})`,
          detail: { kind: 'sample', action: 'exchange', ok: false, status: response.status, message },
        });
        return { status: 502, html: resultPage('The code exchange failed', [message], []) };
      }
      accessToken = body.access_token;
      lines.push(`Exchanged the code at ${TOKEN_PATH}: ${response.status}, access token ${mask(accessToken)}.`);
      recorder.step(flowId, {
        ok: true,
        summary: `sample: exchanged the code (${response.status})`,
        detail: { kind: 'sample', action: 'exchange', ok: true, status: response.status, message: lines[0]! },
      });
    } catch (failure) {
      const message = `the token endpoint could not be reached: ${(failure as Error).message}`;
      recorder.step(flowId, {
        ok: false,
        summary: 'sample: code exchange failed',
        detail: { kind: 'sample', action: 'exchange', ok: false, status: null, message },
      });
      return { status: 502, html: resultPage('The code exchange failed', [message], []) };
    }

    try {
      const response = await fetch(`${urls.control}/api/v1/households`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      const text = await response.text();
      if (!response.ok) {
        const message = `GET /api/v1/households answered ${response.status}: ${text.slice(0, 200)}`;
        recorder.step(flowId, {
          ok: false,
          summary: `sample: listing households failed (${response.status})`,
          detail: { kind: 'sample', action: 'households', ok: false, status: response.status, message },
        });
        return { status: 502, html: resultPage('Listing the households failed', [...lines, message], []) };
      }
      const listed = (JSON.parse(text) as { households?: { id: string; name: string }[] }).households ?? [];
      const households = listed.map((h) => h.name);
      const message = `GET /api/v1/households with the token: ${households.join(', ') || 'no households'}`;
      recorder.step(flowId, {
        ok: true,
        summary: `sample: listed households (${households.join(', ')})`,
        detail: { kind: 'sample', action: 'households', ok: true, status: response.status, message, households },
      });
      const subscribed = await this.subscribe(
        accessToken,
        listed.map((h) => h.id),
      );
      return {
        status: 200,
        html: resultPage(
          'The sample integration is signed in',
          [...lines, 'Listed the households at the control API with the access token:'],
          households,
          [
            'Subscribed to events with the token; play, pause or skip on a group and they arrive at the sample\u2019s receiver:',
            ...subscribed,
          ],
        ),
      };
    } catch (failure) {
      const message = `the control API could not be reached: ${(failure as Error).message}`;
      recorder.step(flowId, {
        ok: false,
        summary: 'sample: listing households failed',
        detail: { kind: 'sample', action: 'households', ok: false, status: null, message },
      });
      return { status: 502, html: resultPage('Listing the households failed', [...lines, message], []) };
    }
  }
}

/** The callback route on the console listener, and the sample's event receiver and its page. */
export async function sampleCallbackRoutes(
  app: FastifyInstance,
  options: { sample: SampleIntegration },
): Promise<void> {
  app.get(SAMPLE_CALLBACK_PATH, { exposeHeadRoute: false }, async (request, reply) => {
    const { status, html } = await options.sample.callback(request.url);
    return reply.code(status).headers(pageHeaders()).send(html);
  });
  app.post(SAMPLE_EVENTS_PATH, { bodyLimit: MAX_EVENT_BODY }, async (request, reply) =>
    reply.code(options.sample.receiveEvent(request.headers, request.body)).send(),
  );
  app.get(SAMPLE_EVENTS_PATH, { exposeHeadRoute: false }, async (_request, reply) =>
    reply.headers(pageHeaders()).send(eventsPage(options.sample.receivedEvents())),
  );
}

function resultPage(title: string, lines: string[], households: string[], events: string[] = []): string {
  return layout(
    `${title} · ${SAMPLE_NAME}`,
    `<p class="eyebrow">${SAMPLE_NAME}</p><h1>${e(title)}</h1>
${lines.map((line) => `<p>${e(line)}</p>`).join('')}
${households.length ? `<ul aria-label="Households">${households.map((h) => `<li><strong>${e(h)}</strong></li>`).join('')}</ul>` : ''}
${events.map((line) => `<p>${e(line)}</p>`).join('')}
${events.length ? `<p><a href="${SAMPLE_EVENTS_PATH}">The events the sample received</a></p>` : ''}
<p class="muted">Every step of this flow is on the console's OAuth page. You can close this tab.</p>`,
  );
}

function eventsPage(events: SampleEvent[]): string {
  const rows = events
    .map(
      (ev) =>
        `<tr><td>${ev.n}</td><td>${e(ev.namespace)} <span class="muted">${e(ev.type)}</span><br><span class="muted">${e(ev.target)}</span></td><td>${e(ev.seqId)}</td><td class="${ev.signatureValid && !ev.replayed ? 'pass' : 'fail'}">${verdictOf(ev)}</td><td><code>${e(ev.body)}</code></td></tr>`,
    )
    .join('');
  return layout(
    `Events · ${SAMPLE_NAME}`,
    `<p class="eyebrow">${SAMPLE_NAME}</p><h1>Events received</h1>
<p class="muted">The newest ${MAX_SAMPLE_EVENTS} events the console sent to the sample's callback in this run, newest first, each with its signature checked from the headers, the client id and the secret. <a href="${SAMPLE_EVENTS_PATH}">Reload</a></p>
${events.length ? `<table aria-label="Events"><thead><tr><th>#</th><th>Event</th><th>Seq</th><th>Signature</th><th>Body</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>None yet: run the sample flow, then play, pause or skip on a group.</p>'}`,
  );
}

function verdictOf(event: SampleEvent): string {
  if (!event.signatureValid) return 'invalid (answered 401)';
  return event.replayed ? 'valid, but a sequence id already taken: a replay (answered 409)' : 'valid';
}

/** Compares in constant time, so that how long a refusal takes says nothing about the signature. */
function sameText(expected: string, received: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}
