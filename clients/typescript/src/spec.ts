// The client's types, read off the types that openapi-typescript generates from openapi.yaml
// (src/generated/openapi.ts): which paths take which method, each operation's query, body, answer and
// NDJSON line. Nothing here is written by hand per endpoint, so a field added to or removed from the
// spec changes what the compiler accepts at the next `npm run generate`.
import type { components, paths } from './generated/openapi.js';

export type { components, paths };

/** The keys of any member of union T (`keyof` of a union gives only the keys all members share). */
export type KeysOfUnion<T> = T extends unknown ? keyof T : never;

/** The HTTP methods the client sends. */
export type Method = 'get' | 'post' | 'options';

/** The paths that answer `method`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<M, { responses: unknown }> ? P : never;
}[keyof paths];

/** The operation of `path` and `method` in the generated types. */
export type Operation<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer O> ? O : never;

type OkContent<O> = O extends { responses: { 200: { content: infer C } } } ? C : never;
type IsNever<T> = [T] extends [never] ? true : false;
type MediaTypeOf<C, Media extends string> = C extends Record<Media, infer V> ? V : never;
// Media types the client reads as text: anything in a 200 answer but JSON and the two stream formats.
type TextMediaTypes<C> = Exclude<keyof C, 'application/json' | 'application/x-ndjson' | 'text/event-stream'>;

/** A 200 answer: its JSON document, or a string for the other media types it may take (SVG, HTML, text). */
export type Answer<O> =
  | MediaTypeOf<OkContent<O>, 'application/json'>
  | (IsNever<TextMediaTypes<OkContent<O>>> extends true ? never : string);

/** The last line of an NDJSON stream that stopped early (the client raises it as a PuzzledError). */
export type StreamEnd = components['schemas']['StreamEnd'];

/** One line of the operation's `application/x-ndjson` answer (a stream's error end aside, which is thrown). */
export type NdjsonLine<O> = Exclude<MediaTypeOf<OkContent<O>, 'application/x-ndjson'>, StreamEnd>;

/** The query parameters of a GET operation. */
export type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The request body of a POST operation: its JSON object, or a string where it also takes text/plain. */
export type Body<O> = O extends { requestBody?: { content: infer C } } ? C[keyof C] : never;

/** POST paths that can answer as NDJSON (the list endpoints and bulk /sudoku/solve). */
export type StreamPath = {
  [P in PathsWith<'post'>]: IsNever<NdjsonLine<Operation<P, 'post'>>> extends true ? never : P;
}[PathsWith<'post'>];

/** Every error code the service can send (openapi.yaml's ErrorCode, which holds api/errors.h's table). */
export type ErrorCode = components['schemas']['ErrorCode'];

/** The machine-readable details of an error, where it has them (a range, conflicting cells, a word). */
export type ErrorDetails = components['schemas']['ErrorDetails'];

/** A big integer (count, rank, seed) as the service writes it: a string of decimal digits. */
export type BigInteger = components['schemas']['BigInteger'];
