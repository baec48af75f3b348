// createClient: every operation of openapi.yaml as a typed call on fetch. Five methods, one per way of
// talking to the service: get (query parameters), post (a JSON or text body), stream (NDJSON lines),
// progress (server-sent progress events, then the answer), preflight (CORS OPTIONS). Paths, fields
// and answers are typed from the generated spec (spec.ts), so a misspelt field or a wrong value type is
// a compile error, and each answer is typed as the one its request selects (selection.ts). Every
// answer that is not a success is thrown as a PuzzledError; every call takes an AbortSignal, and the
// retry of 503 overloaded / 429 is opt-in (retry.ts). Each request and response passes the caller's
// hooks (hooks.ts); the response of a get or post stays reachable through withResponse
// (with_response.ts). Only fetch, Request, Response, ReadableStream, TextDecoder and AbortSignal are
// used: browsers and Node 20 alike, no polyfills.
import { errorFromResponse, parseJson } from './errors.js';
import { hookedRequest, hookedResponse, type Hooks } from './hooks.js';
import { EVENTS_OR_ANY, NDJSON, readAnswer } from './media.js';
import { ndjsonArray, ndjsonValues } from './ndjson.js';
import { progressEvents, type ProgressEvent } from './progress.js';
import { withRetry, type RetryOptions } from './retry.js';
import type { SelectedAnswer, SelectedLine } from './selection.js';
import type { Body, KeysOfUnion, NdjsonLine, Operation, PathsWith, Query, StreamPath } from './spec.js';
import { answered } from './with_response.js';

export interface ClientOptions {
  /** The service's address, such as "http://localhost:8080"; "" for the page's own origin in a browser. */
  baseUrl: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Retry 503 `overloaded` and 429 after their Retry-After; off unless given. */
  retry?: RetryOptions;
  /** The fetch to call with each Request (default: the global fetch, looked up at each call). */
  fetch?: typeof fetch;
  /** Called with every request and response, in this order (hooks.ts). */
  hooks?: Hooks[];
}

export interface CallOptions {
  /** Aborts the request, the wait before a retry, or the reading of a stream (the service then stops). */
  signal?: AbortSignal;
  /** Headers for this call, over the client's. */
  headers?: Record<string, string>;
  /** This call's retry instead of the client's; false for none. */
  retry?: RetryOptions | false;
}

/** The required property a misspelt field K turns into, whose name says that K is not a field; its
 * type is the request's fields, so the compiler's message lists them. */
export type UnknownField<K> = `'${K & string}' is not a field of this request; its fields are`;

/** Request R as given, each field that type T lacks made an error (a misspelt field) that names it and
 * lists T's fields: R is inferred from the call, to select the answer, and an inferred type would
 * otherwise accept extra fields. (A text body passes: where T takes a string, T's keys include a string's.) */
export type Exactly<T, R> = R & { [K in Exclude<keyof R, KeysOfUnion<T>> as UnknownField<K>]: Exclude<KeysOfUnion<T>, KeysOfUnion<string>> };

// A value as a `const` call infers it: an array literal as a readonly array, at every depth.
type GivenValue<V> = V extends readonly (infer E)[] ? readonly GivenValue<E>[] : V;
/** Request T as a call may give it: its array fields may be readonly (a `const` literal's are). */
export type Given<T> = T extends object ? { [K in keyof T]: GivenValue<T[K]> } : T;

/** GET paths whose query may be left out (none of its fields is required, or it has none). */
export type PathsWithOptionalQuery = {
  [P in PathsWith<'get'>]: Record<string, never> extends Query<Operation<P, 'get'>> ? P : [Query<Operation<P, 'get'>>] extends [never] ? P : never;
}[PathsWith<'get'>];

export interface PuzzledClient {
  /** GET with the fields as query parameters (arrays are sent comma-separated); resolves with the answer the query selects (selection.ts). */
  get<P extends PathsWith<'get'>, const Q extends Given<Query<Operation<P, 'get'>>>>(path: P, query: Exactly<Query<Operation<P, 'get'>>, Q>, options?: CallOptions): Promise<SelectedAnswer<P, 'get', Q>>;
  /** GET without a query, where none is required: the answer the service gives by default. */
  get<P extends PathsWithOptionalQuery>(path: P, query?: undefined, options?: CallOptions): Promise<SelectedAnswer<P, 'get', undefined>>;
  /** POST with a JSON body (or a text/plain one where the operation takes it, such as bulk /sudoku/solve);
   * resolves with the answer the body selects (selection.ts). */
  post<P extends PathsWith<'post'>, const B extends Given<Body<Operation<P, 'post'>>>>(path: P, body: Exactly<Body<Operation<P, 'post'>>, B>, options?: CallOptions): Promise<SelectedAnswer<P, 'post', B>>;
  /** The answer of a list endpoint as NDJSON, one value per iteration, each typed by the body where it
   * is made of its values (selection.ts: strings for `text`, arrays of the items for `items`);
   * breaking out of the loop stops the service. */
  stream<P extends StreamPath, const B extends Given<Body<Operation<P, 'post'>>>>(path: P, body: Exactly<Body<Operation<P, 'post'>>, B>, options?: CallOptions): AsyncGenerator<SelectedLine<P, B>, void, undefined>;
  /** Progress events of a long computation, ending in its answer (just the answer where there are none). */
  progress<P extends PathsWith<'post'>, const B extends Given<Exclude<Body<Operation<P, 'post'>>, string>>>(path: P, body: Exactly<Body<Operation<P, 'post'>>, B>, options?: CallOptions): AsyncGenerator<ProgressEvent<SelectedAnswer<P, 'post', B>>, void, undefined>;
  /** The same for a text/plain body (bulk /sudoku/solve): the answer is its NDJSON lines, as an array. */
  progress<P extends StreamPath>(path: P, body: Extract<Body<Operation<P, 'post'>>, string>, options?: CallOptions): AsyncGenerator<ProgressEvent<NdjsonLine<Operation<P, 'post'>>[]>, void, undefined>;
  /** The CORS preflight (OPTIONS) of a path: its 204's headers (Allow, Access-Control-Allow-Methods, ...). */
  preflight<P extends PathsWith<'options'>>(path: P, options?: CallOptions): Promise<Headers>;
}

function queryString(query: object | undefined): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.map(String).join(',') : String(value);
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

interface Call {
  method: 'GET' | 'POST' | 'OPTIONS';
  path: string;
  query?: object | undefined;
  body?: unknown;
  accept?: string;
}

// The answer in a result event, whose data is the plain answer's bytes without their media type: the
// NDJSON lines of a text body, an SVG drawing as its text (the one answer that begins with '<'), or
// else a JSON document.
function resultOf(body: unknown, text: string, status: number): unknown {
  if (typeof body === 'string') return ndjsonArray(text, status);
  if (text.startsWith('<')) return text;
  return parseJson(text, status, 'the answer');
}

export function createClient(options: ClientOptions): PuzzledClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchOne: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  // Sends one request (again while the retry allows) and resolves with its 2xx response.
  async function send(request: Call, call: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers, ...call.headers };
    if (request.accept !== undefined) headers['Accept'] = request.accept;
    let body: string | undefined;
    if (request.body !== undefined) {
      const isText = typeof request.body === 'string';
      headers['Content-Type'] = isText ? 'text/plain; charset=utf-8' : 'application/json';
      body = isText ? request.body as string : JSON.stringify(request.body);
    }
    const url = `${baseUrl}${request.path}${queryString(request.query)}`;
    const retry = call.retry === false ? undefined : call.retry ?? options.retry;
    const hooks = options.hooks ?? [];
    return withRetry(async () => {
      const sent = await hookedRequest(hooks, new Request(url, { method: request.method, headers, body: body ?? null, signal: call.signal ?? null }));
      const response = await hookedResponse(hooks, await fetchOne(sent), sent);
      if (!response.ok) throw await errorFromResponse(response);
      return response;
    }, retry, call.signal);
  }

  return {
    get(path: string, query?: object, call?: CallOptions) {
      return answered(send({ method: 'GET', path, query }, call), (response) => readAnswer(response, call?.signal)) as never;
    },
    post(path, body, call) {
      return answered(send({ method: 'POST', path, body }, call), (response) => readAnswer(response, call?.signal)) as never;
    },
    stream(path, body, call) {
      return ndjsonValues(() => send({ method: 'POST', path, body, accept: NDJSON }, call), call?.signal);
    },
    progress: ((path: string, body: unknown, call?: CallOptions) => progressEvents(
      () => send({ method: 'POST', path, body, accept: EVENTS_OR_ANY }, call),
      (text, status) => resultOf(body, text, status),
    )) as PuzzledClient['progress'],
    async preflight(path, call) {
      const response = await send({ method: 'OPTIONS', path }, call);
      await response.body?.cancel();
      return response.headers;
    },
  };
}
