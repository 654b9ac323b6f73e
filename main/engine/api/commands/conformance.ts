/**
 * Commands of the conformance suite (docs/contract/console.md §7 `conformance`, §8): start a run
 * against a cloud queue server, follow it, stop it, list, rerun, delete and export runs.
 */
import Type, { type Static } from 'typebox';
import { command } from '../command.js';
import {
  MADE_UP_PATTERN,
  MAX_CONFORMANCE_MAX_BYTES,
  MAX_CONFORMANCE_TIMEOUT_MS,
  type ConformanceCaseInfo,
  type ConformanceReportFile,
  type ConformanceReportFormat,
  type ConformanceRun,
  type ConformanceRunSummary,
} from '../conformance-types.js';
import { Empty, HeaderValue, Id, type Same } from './shared.js';

/** The queueBaseUrl a loadCloudQueue would carry: the player appends context, itemWindow, version, timePlayed. */
const BaseUrl = Type.String({ minLength: 8, maxLength: 2_048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' });
/** Sent verbatim as `Authorization` on every request, as the player sends a load's `httpAuthorization`. */
const Authorization = HeaderValue({ minLength: 1, maxLength: 8_192 });
/** Case ids: only these run, with the cases they build on (a replay of a report's failures). */
const CaseIds = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 });
/**
 * Values an earlier run made up (its `cqc-check-…` itemId and token, in its report's URLs and
 * headers): this run sends them again instead of new ones, so a replay re-sends the very requests.
 */
const MadeUpValues = Type.Array(Type.String({ pattern: MADE_UP_PATTERN }), { minItems: 1, maxItems: 20 });
/** The run's whole deadline, wall ms: the case running then fails and the rest are skipped. */
const TimeoutMs = Type.Integer({ minimum: 1_000, maximum: MAX_CONFORMANCE_TIMEOUT_MS });
/** The most bytes read of one answer: a bigger one is cut there and fails its case, naming the size. */
const MaxBytes = Type.Integer({ minimum: 1_024, maximum: MAX_CONFORMANCE_MAX_BYTES });

/** Spelled out: a union mapped from an array has no static type; the check below keeps it in step. */
const ReportFormat = Type.Union([Type.Literal('json'), Type.Literal('junit'), Type.Literal('html')]);
const sameFormats: Same<Static<typeof ReportFormat>, ConformanceReportFormat> = true;
void sameFormats;

export const conformanceCommands = {
  'conformance.cases': command<ConformanceCaseInfo[]>()({
    summary: 'The cases of the conformance suite, in the order a run settles them, each with the rule it checks.',
    input: Empty,
    http: { method: 'GET', path: '/conformance/cases' },
  }),
  'conformance.runs.start': command<{ id: string }>()({
    summary:
      'Starts a conformance run against a cloud queue server (its queueBaseUrl) in the background; follow it with GET /conformance/runs/{id} or the conformance.progress events.',
    input: Type.Object({
      baseUrl: BaseUrl,
      authorization: Type.Optional(Authorization),
      timeoutMs: Type.Optional(TimeoutMs),
      maxBytes: Type.Optional(MaxBytes),
      cases: Type.Optional(CaseIds),
      madeUp: Type.Optional(MadeUpValues),
    }),
    http: { method: 'POST', path: '/conformance/runs', status: 202 },
  }),
  'conformance.runs.list': command<ConformanceRunSummary[]>()({
    summary: 'The runs kept (the newest 50), newest first, without their cases.',
    input: Empty,
    http: { method: 'GET', path: '/conformance/runs' },
  }),
  'conformance.runs.get': command<ConformanceRun>()({
    summary: 'One run with its cases so far: outcome, message and the traffic log ids of its evidence.',
    input: Id,
    http: { method: 'GET', path: '/conformance/runs/:id' },
  }),
  'conformance.runs.rerun': command<{ id: string }>()({
    summary:
      'Runs the suite again against the server a run checked, as a new run. After a restart the Authorization it sent must be given again.',
    input: Type.Object({ id: Type.String({ minLength: 1 }), authorization: Type.Optional(Authorization) }),
    http: { method: 'POST', path: '/conformance/runs/:id/rerun', status: 202 },
  }),
  'conformance.runs.stop': command<ConformanceRun>()({
    summary:
      'Stops a run going on: its requests in flight are aborted, the cases it settled stand, the rest do not run, and it ends failed with error kind "stopped". Answers the run once it has ended; a run that has ended is answered as it is.',
    input: Id,
    http: { method: 'POST', path: '/conformance/runs/:id/stop' },
  }),
  'conformance.runs.delete': command<{ removed: true }>()({
    summary: 'Deletes a finished run.',
    input: Id,
    http: { method: 'DELETE', path: '/conformance/runs/:id' },
  }),
  'conformance.runs.export': command<ConformanceReportFile>()({
    summary: 'A finished run as a file: JSON, JUnit XML, or a self-contained HTML report.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      format: ReportFormat,
    }),
    http: { method: 'GET', path: '/conformance/runs/:id/export' },
    largeAnswer: true,
  }),
};
