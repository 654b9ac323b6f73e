/** Which queues of this console a span used: by the traffic's paths and URLs, and by the journaled calls. */
import { isObject } from '../api/is-object.js';
import { TOKEN_REF } from '../journal/secrets.js';
import type { JournalEntry } from '../journal/types.js';
import type { StoredTrafficEntry } from '../traffic/log/index.js';

/** The queue id of this console an entry called, by the URL it names, if any. */
export function queueIdUsed(entry: StoredTrafficEntry, cloudQueueUrl: string): string | undefined {
  if (entry.target === 'cloudQueue') return fromPath(entry.path);
  if (entry.target === 'player' && entry.url.startsWith(`${cloudQueueUrl}/`)) return fromPath(entry.path);
  if (entry.target === 'control' && entry.requestBody?.includes('queueBaseUrl')) {
    const body = parseJson(entry.requestBody);
    const url = isObject(body) && typeof body.queueBaseUrl === 'string' ? body.queueBaseUrl : '';
    if (url.startsWith(`${cloudQueueUrl}/`)) return fromPath(url.slice(cloudQueueUrl.length));
  }
  return undefined;
}

const fromPath = (path: string) => /^\/queues\/([^/]+)\//.exec(path)?.[1];

/** The queues the journaled calls named: a control call's queue URL or token, a queue edit's queue. */
export function queueIdsCalled(calls: readonly JournalEntry[], cloudQueueUrl: string): string[] {
  const ids = new Set<string>();
  for (const call of calls) {
    if (call.kind === 'control' && isObject(call.body)) {
      const { queueBaseUrl, httpAuthorization } = call.body;
      if (typeof queueBaseUrl === 'string' && queueBaseUrl.startsWith(`${cloudQueueUrl}/queues/`)) {
        const id = /^\/queues\/([^/]+)/.exec(queueBaseUrl.slice(cloudQueueUrl.length))?.[1];
        if (id) ids.add(id);
      }
      const owner = typeof httpAuthorization === 'string' ? TOKEN_REF.exec(httpAuthorization)?.[1] : undefined;
      if (owner) ids.add(owner);
    } else if (
      call.kind === 'command' &&
      call.name.startsWith('queues.') &&
      call.name !== 'queues.create' &&
      isObject(call.input) &&
      typeof call.input.id === 'string'
    ) {
      ids.add(call.input.id);
    }
  }
  return [...ids];
}

function parseJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
