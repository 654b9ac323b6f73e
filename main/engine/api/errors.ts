/**
 * Errors are values with codes, made once here and turned into HTTP, IPC or UI at each edge.
 */
export const ENGINE_ERROR_STATUS = {
  invalid_input: 400,
  unknown_command: 404,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
  internal: 500,
} as const;

export type EngineErrorCode = keyof typeof ENGINE_ERROR_STATUS;

/** What crosses a transport: `{ error: EngineErrorBody }`. */
export interface EngineErrorBody {
  code: EngineErrorCode;
  message: string;
  details?: unknown;
}

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly details: unknown;

  constructor(code: EngineErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.details = details;
  }

  toBody(): EngineErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isEngineErrorBody(value: unknown): value is EngineErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return typeof code === 'string' && code in ENGINE_ERROR_STATUS && typeof message === 'string';
}

/** Any thrown value's message (an Error's, else the value as text). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Any thrown value as a body; unknown failures keep their message but never their stack. */
export function toErrorBody(error: unknown): EngineErrorBody {
  if (error instanceof EngineError) return error.toBody();
  return { code: 'internal', message: messageOf(error) };
}
