/** Traffic entries as a HAR 1.2 log, with the console's own fields under `_` names. */
import type { HarEntry, HarLog, HarNameValue } from '../api/har-types.js';
import { TRAFFIC_CUT_PARTS, type TrafficCut, type TrafficCutPart, type TrafficEntry } from '../api/traffic-types.js';

/** The console's version as a HAR log's creator names it. */
export const HAR_CREATOR_VERSION = '0.1.0';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  204: 'No Content',
  302: 'Found',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const pairs = (headers: Record<string, string>): HarNameValue[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

function queryOf(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams.entries()].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function headerOf(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

export function toHarEntry(entry: TrafficEntry): HarEntry {
  const responseType = headerOf(entry.responseHeaders, 'content-type') ?? 'application/octet-stream';
  const har: HarEntry = {
    startedDateTime: new Date(entry.wallAt).toISOString(),
    time: entry.latencyMs ?? 0,
    request: {
      method: entry.method,
      url: entry.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(entry.requestHeaders),
      queryString: queryOf(entry.url),
      headersSize: -1,
      bodySize: entry.requestBody === null ? 0 : Buffer.byteLength(entry.requestBody),
    },
    response: {
      status: entry.status ?? 0,
      statusText: entry.status === null ? '' : (STATUS_TEXT[entry.status] ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(entry.responseHeaders),
      content: {
        size: entry.responseBody === null ? 0 : Buffer.byteLength(entry.responseBody),
        mimeType: responseType,
        ...(entry.responseBody === null ? {} : { text: entry.responseBody }),
      },
      redirectURL: headerOf(entry.responseHeaders, 'location') ?? '',
      headersSize: -1,
      bodySize: entry.responseBody === null ? -1 : Buffer.byteLength(entry.responseBody),
    },
    cache: {},
    timings: { send: 0, wait: entry.latencyMs ?? 0, receive: 0 },
    _target: entry.target,
    _engineTime: entry.at,
    _reason: entry.reason,
    _retry: entry.retry,
    _fault: entry.fault,
    _requestId: entry.requestId,
    _playerId: entry.playerId,
    _outcome: entry.outcome,
  };
  if (entry.requestBody !== null) {
    har.request.postData = {
      mimeType: headerOf(entry.requestHeaders, 'content-type') ?? 'application/octet-stream',
      text: entry.requestBody,
    };
  }
  if (entry.status === null)
    har.response._error =
      entry.outcome === 'timeout' ? 'no response (timeout)' : 'connection closed without a response';
  if (entry.cut) har.comment = cutComment(entry.cut);
  return har;
}

const PART_NAMES: Record<TrafficCutPart, string> = {
  requestHeaders: 'request headers',
  requestBody: 'request body',
  responseHeaders: 'response headers',
  responseBody: 'response body',
};

/** What capture cut, as HAR's comment says it: a reader must not take a cut body for the whole. */
function cutComment(cut: TrafficCut): string {
  const parts = TRAFFIC_CUT_PARTS.filter((part) => cut[part]).map(
    (part) => `${PART_NAMES[part]} cut at ${cut[part]!.kept} of ${cut[part]!.size} bytes`,
  );
  return `${parts.join('; ') || 'cut'} (the console keeps each entry within its size)`;
}

export function toHar(entries: TrafficEntry[], version: string): HarLog {
  return {
    log: { version: '1.2', creator: { name: 'Cloud Queue Console', version }, entries: entries.map(toHarEntry) },
  };
}
