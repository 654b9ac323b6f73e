/**
 * The cloud queue server's error body (CONTRACT §4), shaped like the platform's own:
 * `{"error":{"code","message","errors":[{"domain","reason","message"}]}}`.
 */
export interface CloudQueueErrorBody {
  error: {
    code: number;
    message: string;
    errors: { domain: string; reason: string; message: string }[];
  };
}

export function cloudQueueError(code: number, reason: string, message: string): CloudQueueErrorBody {
  return { error: { code, message, errors: [{ domain: 'cloudQueue', reason, message }] } };
}
