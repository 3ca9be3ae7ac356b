/**
 * The one error model. Expected failures carry a stable code; HTTP status is derived from the code in
 * one place. `message` is for logs; `userMessage` (when set) is safe to show to users.
 */
export const ERROR_CODES = [
  "NOT_FOUND",
  "INVALID_REQUEST",
  "CONFLICT",
  "RATE_LIMITED",
  "UNAVAILABLE",
  "PAYLOAD_TOO_LARGE",
  "INTERNAL",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const HTTP_STATUS: Record<ErrorCode, number> = {
  NOT_FOUND: 404,
  INVALID_REQUEST: 422,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  PAYLOAD_TOO_LARGE: 413,
  INTERNAL: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly userMessage?: string;
  /** The offending field or file, when the error is about one. */
  readonly field?: string;

  constructor(code: ErrorCode, message: string, opts: { userMessage?: string; field?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.userMessage = opts.userMessage;
    this.field = opts.field;
  }

  get status(): number {
    return HTTP_STATUS[this.code];
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** A one-line description of any thrown value, for CLI output and logs. */
export function describeError(err: unknown): string {
  if (err instanceof AppError) return err.userMessage ?? err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
