// PuzzledError: every answer of the service that is not a success, as one typed error carrying what
// the JSON error body says (code, message, the field to blame) and what the headers add (Retry-After,
// X-Request-Id). An answer that is not the documented error body (a proxy's page, a cut stream) becomes
// a PuzzledError too, with code `bad_response`, so callers catch one class.
import type { ErrorCode } from './spec.js';

/** The error codes of the service, and `bad_response` for an answer that is not one of its error bodies. */
export type PuzzledErrorCode = ErrorCode | 'bad_response';

export class PuzzledError extends Error {
  override readonly name = 'PuzzledError';
  /** The HTTP status; for an `event: error` inside a progress stream, the 200 the stream began with. */
  readonly status: number;
  readonly code: PuzzledErrorCode;
  /** The request field to blame, when there is one. */
  readonly field: string | undefined;
  /** Seconds to wait before trying again (the Retry-After header of 503 overloaded and 429). */
  readonly retryAfter: number | undefined;
  /** The X-Request-Id of the answer, to find it in the service's log. */
  readonly requestId: string | undefined;

  constructor(status: number, code: PuzzledErrorCode, message: string,
    { field, retryAfter, requestId }: { field?: string | undefined; retryAfter?: number | undefined; requestId?: string | undefined } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.retryAfter = retryAfter;
    this.requestId = requestId;
  }
}

/** Seconds from a Retry-After header (delay-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^[0-9]+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The PuzzledError of a parsed JSON error body (`{"error": {code, message, field}}`), or of anything else. */
export function errorFromBody(status: number, body: unknown, headers: Headers): PuzzledError {
  const details = {
    retryAfter: retryAfterSeconds(headers.get('Retry-After')),
    requestId: headers.get('X-Request-Id') ?? undefined,
  };
  const error = (body as { error?: { code?: unknown; message?: unknown; field?: unknown } } | null)?.error;
  if (typeof error?.code !== 'string' || typeof error.message !== 'string') {
    return new PuzzledError(status, 'bad_response', `HTTP ${status} without the service's error body`, details);
  }
  const field = typeof error.field === 'string' ? error.field : undefined;
  return new PuzzledError(status, error.code as ErrorCode, error.message, { ...details, field });
}

/** The PuzzledError of a response that is not a success; reads its body. */
export async function errorFromResponse(response: Response): Promise<PuzzledError> {
  const text = await response.text();
  let body: unknown = null;
  try { body = JSON.parse(text); } catch { /* not JSON: errorFromBody says bad_response */ }
  return errorFromBody(response.status, body, response.headers);
}

/** `text` parsed as JSON, or a PuzzledError `bad_response` naming `what` was not JSON. */
export function parseJson<T>(text: string, status: number, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new PuzzledError(status, 'bad_response', `${what} is not JSON: ${text.slice(0, 200)}`);
  }
}
