/**
 * The one error type of the Worker. Services throw these; the single onError in app.ts turns them into
 * `{ error: { code, message, issues? } }`. Messages are Swedish because people read them.
 */
export type ErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'payment_required'
  | 'unavailable'
  | 'unsupported_media_type'
  | 'internal';

export interface FieldIssue {
  /** Dotted path of the field, e.g. "email" or "items.0.tier". */
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 402 | 415 | 429 | 500 | 503,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: FieldIssue[],
    /** Extra machine-readable details, e.g. { retryAfterSeconds }. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalidInput = (message: string, issues?: FieldIssue[]) => new AppError(400, 'invalid_input', message, issues);
export const unauthorized = (message = 'Du måste vara inloggad.') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'Du har inte behörighet att göra detta.') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Hittades inte.') => new AppError(404, 'not_found', message);
export const conflict = (message: string, details?: Record<string, unknown>) => new AppError(409, 'conflict', message, undefined, details);
export const rateLimited = (message: string, retryAfterSeconds: number) => new AppError(429, 'rate_limited', message, undefined, { retryAfterSeconds });
/** A part of the service is not configured or not reachable (e.g. payments without a Stripe key). */
export const unavailable = (message: string) => new AppError(503, 'unavailable', message);

/**
 * A row read back after a write can be gone (deleted by another request in between; issue 27.4): that is a
 * 404 with `message`, never a 500 from a non-null assertion (`row!`). Prefer reading in the write's batch
 * (`.returning()`); use this where the answer needs a second read.
 */
export function foundOr404<T>(row: T | null | undefined, message?: string): T {
  if (row === null || row === undefined) throw notFound(message);
  return row;
}
/** A JSON endpoint called with another content type (a form or text/plain body would be read as `{}`). */
export const unsupportedMediaType = (message = 'Förfrågan måste skickas som JSON (Content-Type: application/json).') =>
  new AppError(415, 'unsupported_media_type', message);
export const paymentRequired = (message: string) => new AppError(402, 'payment_required', message);

export interface ErrorBody {
  error: { code: ErrorCode; message: string; issues?: FieldIssue[]; details?: Record<string, unknown> };
}

export function errorBody(err: AppError): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.issues ? { issues: err.issues } : {}),
      ...(err.details ? { details: err.details } : {}),
    },
  };
}
