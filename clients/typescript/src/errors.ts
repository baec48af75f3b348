// PuzzledError: every answer of the service that is not a success, as one typed error carrying what
// the JSON error body says (code, message, the field to blame, details) and what the headers add
// (Retry-After, X-Request-Id); an NDJSON stream's error end is one too. An answer that is not the
// documented error body (a proxy's page) becomes a PuzzledError with code `bad_response`, and a body
// whose transfer broke off (a JSON list cut by its time limit, a dropped connection) one with code
// `stream_cut`, so callers catch one class and never a bare TypeError. Its type is a union by code, so
// that a check of `code` narrows `details` to what that code carries (error_details.ts).
import type { DetailsOf } from './error_details.js';
import type { ErrorCode, ErrorDetails } from './spec.js';

/** The error codes of the service; `bad_response` for an answer that is not one of its error bodies;
 * `stream_cut` for a body whose transfer broke off before its end. */
export type PuzzledErrorCode = ErrorCode | 'bad_response' | 'stream_cut';

/** What a PuzzledError holds besides its status, code and message. */
export interface PuzzledErrorExtras<C extends PuzzledErrorCode> {
  field?: string | undefined;
  details?: DetailsOf<C> | undefined;
  retryAfter?: number | undefined;
  requestId?: string | undefined;
}

class PuzzledErrorClass<C extends PuzzledErrorCode> extends Error {
  override readonly name = 'PuzzledError';
  /** The HTTP status; for an `event: failed` inside a progress stream, the 200 the stream began with. */
  readonly status: number;
  readonly code: C;
  /** The request field to blame, when there is one. */
  readonly field: string | undefined;
  /** What the message says, for a program, where the service gives it (a range, conflicting cells, a
   * word): typed by the code, undefined for a code that carries none. */
  readonly details: DetailsOf<C> | undefined;
  /** Seconds to wait before trying again (the Retry-After header of 503 overloaded and 429). */
  readonly retryAfter: number | undefined;
  /** The X-Request-Id of the answer, to find it in the service's log. */
  readonly requestId: string | undefined;

  constructor(status: number, code: C, message: string, { field, details, retryAfter, requestId }: PuzzledErrorExtras<C> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.details = details;
    this.retryAfter = retryAfter;
    this.requestId = requestId;
  }
}

/** A PuzzledError of one code, its details typed by it. */
export type PuzzledErrorOf<C extends PuzzledErrorCode> = PuzzledErrorClass<C>;

/** Every PuzzledError: one member per code, so that comparing `code` narrows `details`. */
export type PuzzledError = { [C in PuzzledErrorCode]: PuzzledErrorOf<C> }[PuzzledErrorCode];

/** The class: `new PuzzledError(...)` and `instanceof PuzzledError`, which narrows to the union above. */
export const PuzzledError: {
  new <C extends PuzzledErrorCode>(status: number, code: C, message: string, extras?: PuzzledErrorExtras<C>): PuzzledErrorOf<C>;
  readonly prototype: PuzzledError;
} = PuzzledErrorClass as never;

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
  const error = (body as { error?: { code?: unknown; message?: unknown; field?: unknown; details?: unknown } } | null)?.error;
  if (typeof error?.code !== 'string' || typeof error.message !== 'string') {
    return new PuzzledError(status, 'bad_response', `HTTP ${status} without the service's error body`, details);
  }
  const field = typeof error.field === 'string' ? error.field : undefined;
  const given = typeof error.details === 'object' && error.details !== null ? error.details as ErrorDetails : undefined;
  return new PuzzledError(status, error.code as ErrorCode, error.message, { ...details, field, details: given }) as PuzzledError;
}

/** A body's reading that failed (fetch's TypeError when the transfer broke off) as a PuzzledError
 * `stream_cut`; an abort is passed on as it is. */
export function streamCut(status: number, cause: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted || (cause instanceof Error && cause.name === 'AbortError') || cause instanceof PuzzledError) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new PuzzledError(status, 'stream_cut', `the answer broke off before its end (${reason}): a time limit reached mid-list, or a dropped connection`);
}

/** Whether an NDJSON line is a stream's error end: an object holding only `error` (bulk Sudoku's
 * per-puzzle errors also carry their `line`). */
export function isStreamEnd(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) &&
    Object.keys(value).length === 1 && 'error' in value;
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
