/**
 * Saves what the console exports (a queue, a repro bundle) as a file: a link to a Blob, clicked.
 * The Blob's URL is let go a little later, once the browser has started the download.
 */
export function downloadJson(fileName: string, value: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
