/**
 * Instruments one of the console's listeners: every exchange is captured into the traffic log,
 * and (for the fault targets) the fault rules get their say first, before any route or auth check.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FaultHit, FaultTarget } from '../api/fault-types.js';
import type { TrafficCut, TrafficOutcome, TrafficTarget } from '../api/traffic-types.js';
import type { EngineClock } from '../clock/clock.js';
import type { FaultRegistry } from '../faults/registry.js';
import { applyServerFault, type StatusResponder } from '../faults/server-fault.js';
import { reasonAsWritten } from '../http/reason-as-written.js';
import { textSent } from '../http/sent-text.js';
import { tapBody } from './body-tap.js';
import { consoleUiKeyOf, type ConsoleUiKey } from './console-ui.js';
import { decodeCut, MAX_BODY_BYTES } from './cut.js';
import { headerBlock, rawHeaderBlock, type HeaderBlock, type NewTrafficEntry } from './log/index.js';
import type { TrafficRecorder } from './recorder.js';

interface CaptureState {
  path: string;
  reason: string | null;
  /** The request body as it arrived (up to the kept size). */
  rawBody: string | null;
  /** The bodies cut here, as bytes (the recorder cuts the text of the others). */
  cut: TrafficCut | null;
  at: number;
  wallAt: number;
  started: number;
  payload: string | null;
  fault: FaultHit | null;
  /** Set once an entry was written by a fault that never lets fastify answer. */
  done: boolean;
}

export interface InstrumentDeps {
  recorder: TrafficRecorder;
  faults: FaultRegistry;
  clock: EngineClock;
  respondStatus?: StatusResponder;
}

const FAULT_TARGETS: readonly string[] = ['login', 'control', 'cloudQueue'];

/**
 * At the console's listener only scripted admin API calls are worth a row: its pages, the console
 * UI's own calls (marked with the key it was given with its page: `console-ui.ts`) and reads of
 * the log itself (which would flood the log with the log) are left out. A call marked as the UI's
 * without the key is a script's, and logged as any.
 */
function worthCapturing(uiKey: ConsoleUiKey | null, request: FastifyRequest): boolean {
  if (uiKey === null) return true;
  if (uiKey.marks(request)) return false;
  const path = pathOf(request.url);
  if (!path.startsWith('/admin/api/')) return false;
  return !/^\/admin\/api\/(events|traffic|commands\/traffic\.)/.test(path);
}

/** A request's capture rides on the request itself: a WeakMap entry costs the collector more. */
const CAPTURE = Symbol('traffic capture');
type Captured = FastifyRequest & { [CAPTURE]?: CaptureState | null };
const captured = {
  get: (request: FastifyRequest): CaptureState | null | undefined => (request as Captured)[CAPTURE],
  set: (request: FastifyRequest, state: CaptureState | null): void => {
    (request as Captured)[CAPTURE] = state;
  },
};

export function instrumentService(app: FastifyInstance, target: TrafficTarget, deps: InstrumentDeps): void {
  // Fixed for the listener: worked out once, not on every request.
  const faultTarget = FAULT_TARGETS.includes(target);
  const uiKey = target === 'console' ? consoleUiKeyOf(app) : null;
  app.instrument.current = {
    // Not async: a request with no fault to apply (nearly all) answers undefined and waits for nothing.
    onRequest(request, reply) {
      const capturing = deps.recorder.capturing && worthCapturing(uiKey, request);
      if (!capturing && !faultTarget) {
        captured.set(request, null);
        return undefined;
      }
      // Worked out once for both the fault rules and the entry.
      const path = pathOf(request.url);
      const reason = reasonOf(request);
      const state: CaptureState | null = capturing
        ? {
            path,
            reason,
            rawBody: null,
            cut: null,
            at: deps.clock.now(),
            wallAt: Date.now(),
            started: performance.now(),
            payload: null,
            fault: null,
            done: false,
          }
        : null;
      captured.set(request, state);
      if (!faultTarget) return undefined;
      const decision = deps.faults.decide(target as FaultTarget, {
        method: request.method,
        path,
        reason: reason ?? undefined,
      });
      if (!decision) return undefined;
      if (state) state.fault = decision.hit;
      const ended = (outcome: TrafficOutcome) => {
        if (!state || state.done) return;
        state.done = true;
        deps.recorder.add(entryOf(target, request, null, state, outcome));
      };
      return applyServerFault(request, reply, decision.action, {
        clock: deps.clock,
        respondStatus: deps.respondStatus,
        target,
        ended,
      });
    },
    preParsing(request, payload) {
      const state = captured.get(request);
      // Most requests (every GET a player sends) carry no body: no tap, no stream work.
      if (
        !state ||
        (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined)
      )
        return payload;
      return tapBody(payload, (bytes, size) => {
        const kept = decodeCut(bytes, MAX_BODY_BYTES);
        state.rawBody = kept.text;
        if (size > kept.kept) state.cut = { ...state.cut, requestBody: { kept: kept.kept, size } };
      });
    },
    onSend(request, _reply, payload) {
      const state = captured.get(request);
      if (!state) return;
      if (Buffer.isBuffer(payload) && payload.length > MAX_BODY_BYTES) {
        // Only what is kept is decoded (an asset or an export can be megabytes).
        const kept = decodeCut(payload, MAX_BODY_BYTES);
        state.payload = kept.text;
        state.cut = { ...state.cut, responseBody: { kept: kept.kept, size: payload.length } };
      } else state.payload = payloadText(payload);
    },
    onResponse(request, reply) {
      const state = captured.get(request);
      if (!state || state.done) return;
      state.done = true;
      deps.recorder.add(entryOf(target, request, reply, state, 'answered'));
    },
  };
}

function entryOf(
  target: TrafficTarget,
  request: FastifyRequest,
  reply: FastifyReply | null,
  state: CaptureState,
  outcome: TrafficOutcome,
): NewTrafficEntry {
  return {
    target,
    at: state.at,
    wallAt: state.wallAt,
    method: request.method,
    url: request.protocol + '://' + (request.headers.host ?? '') + request.url,
    path: state.path,
    reason: state.reason,
    status: reply ? reply.statusCode : null,
    latencyMs: Math.round(performance.now() - state.started),
    retry: null,
    fault: state.fault,
    playerId: headerValue(request.headers['x-player-id']),
    requestId: headerValue(request.headers['x-request-id']),
    outcome,
    requestHeaders: rawHeaderBlock(request.raw.rawHeaders),
    requestBody: state.rawBody ?? bodyText(request.body),
    responseHeaders: reply ? responseHeaderBlock(reply) : '',
    responseBody: reply ? state.payload : null,
    cut: state.cut,
    // Set by masking at the turn's end: here from the start, so that setting them does not
    // change the entry's shape (a new hidden class, and room for two more fields, per entry).
    masked: false,
    held: null,
  };
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function reasonOf(request: FastifyRequest): string | null {
  const reason = (request.query as Record<string, unknown> | undefined)?.reason;
  return typeof reason === 'string' ? reasonAsWritten(reason) : null;
}

function headerValue(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/**
 * The response's header block as Node wrote it to the socket (status line, then what fastify set
 * and what Node added: Date, Connection, Keep-Alive). `_header` is not in Node's documentation,
 * but it is how Node has held the block since its first releases and what middleware like
 * on-headers and morgan read; building the block anew from `getHeaders()` cost a tenth of the
 * capture. Should a Node release drop it, the block is built from fastify's headers instead.
 */
function responseHeaderBlock(reply: FastifyReply): HeaderBlock {
  const written = (reply.raw as { _header?: unknown })._header;
  return typeof written === 'string' ? written : headerBlock(reply.getHeaders());
}

function bodyText(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return textSent(body);
  return JSON.stringify(body);
}

function payloadText(payload: unknown): string | null {
  if (payload === null || payload === undefined) return null;
  if (typeof payload === 'string') return payload;
  // A kept answer (a cached window) is sent as bytes made from text: that text, not a new copy.
  if (Buffer.isBuffer(payload)) return textSent(payload);
  return '(streamed body not captured)';
}
