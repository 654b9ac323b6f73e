/**
 * Queues as JSON files: what export writes (the body POST /admin/api/queues takes, items with
 * their ids) and what import reads. A file that is not JSON, or not a queue, is refused with a
 * message that says why, before anything is sent; the engine checks the rest and changes nothing
 * when it refuses.
 */
import type { QueueView } from '@engine-api/queue-types';
import { notJsonMessage } from '../../format/not-json';

export interface QueueFile {
  name?: string;
  items: unknown[];
  playbackPolicies?: unknown;
  reports?: unknown;
  container?: unknown;
}

export function toQueueFile(queue: QueueView): QueueFile {
  const { type, imageUrl } = queue.container;
  return {
    name: queue.name,
    container: imageUrl ? { type, imageUrl } : { type },
    playbackPolicies: queue.playbackPolicies,
    reports: queue.reports,
    items: queue.items,
  };
}

export type ParsedQueueFile = { ok: true; file: QueueFile } | { ok: false; message: string };

export function parseQueueFile(fileName: string, text: string): ParsedQueueFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: notJsonMessage(fileName, text, error) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `${fileName} is not a queue: expected an object with an "items" array` };
  }
  const file = value as Record<string, unknown>;
  if (!Array.isArray(file.items)) return { ok: false, message: `${fileName} is not a queue: it has no "items" array` };
  return { ok: true, file: file as unknown as QueueFile };
}

/** A safe file name for a queue's export. */
export function exportFileName(name: string): string {
  const base = name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'queue';
  return `${base}.queue.json`;
}

export function readFileText(file: File): Promise<string> {
  return file.text();
}
