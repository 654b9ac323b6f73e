/** Reads a chosen queue file and hands it on, or says plainly why it cannot (nothing is sent then). */
import { useState, type ChangeEvent } from 'react';
import { parseQueueFile, type QueueFile } from './transfer';

export function useFileImport(onFile: (file: QueueFile, fileName: string) => Promise<unknown>) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setError(null);
    const parsed = parseQueueFile(file.name, await file.text());
    if (!parsed.ok) return setError(parsed.message);
    setBusy(true);
    try {
      await onFile(parsed.file, file.name);
    } catch (failure) {
      setError(`${file.name} was not imported: ${(failure as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  return { onChange, error, busy };
}
