/**
 * Saves an exported report as a file, as the Queues and Traffic areas save theirs (a link to a
 * Blob, clicked): the report comes from the engine as text (XML, HTML or JSON) and is saved as it
 * is, under the engine's file name.
 */
import type { ConformanceReportFile } from '@engine-api/conformance-types';

export function downloadReport({ fileName, mediaType, content }: ConformanceReportFile): void {
  const url = URL.createObjectURL(new Blob([content], { type: mediaType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
