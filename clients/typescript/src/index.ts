// The public API of puzzled-client: createClient and its options (hooks among them), withResponse,
// PuzzledError, the BigInt helpers, and the types read off openapi.yaml. Everything else in src/ is internal and may change.
export { createClient } from './client.js';
export type { CallOptions, ClientOptions, Exactly, PathsWithOptionalQuery, PuzzledClient, UnknownField } from './client.js';
export { PuzzledError } from './errors.js';
export type { PuzzledErrorCode, PuzzledErrorExtras, PuzzledErrorOf } from './errors.js';
export type { DetailsOf } from './error_details.js';
export type { RetryOptions } from './retry.js';
export type { Hooks } from './hooks.js';
export { withResponse } from './with_response.js';
export type { WithResponse } from './with_response.js';
export type { Progress, ProgressEvent } from './progress.js';
export { toBigInt, fromBigInt } from './bigint.js';
export type { SelectedAnswer, SelectedLine } from './selection.js';
export type { Answer, BigInteger, Body, components, ErrorCode, ErrorDetails, NdjsonLine, StreamEnd, Operation, paths, PathsWith, Query, StreamPath } from './spec.js';
