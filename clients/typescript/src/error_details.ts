// Which error codes carry which details: the one place that says, for every code whose answer may
// hold `details`, the schemas those details take (openapi.yaml's ErrorDetails says the same in words),
// and `DetailsOf`, the type that reads it, so that a PuzzledError narrowed by its `code` has its
// `details` typed with no cast (`e.code === 'conflicting_givens'` gives `e.details?.cells`). Any other
// code carries none. openapi-typescript keeps no link between a code and its details, so the table
// lives here; test/error_details_spec.test.ts holds it to openapi.yaml both ways, and
// test/contract.test.ts to the live service.
import type { components, ErrorCode } from './spec.js';

type Schemas = components['schemas'];

export const ERROR_DETAILS = {
  invalid_field: ['RangeDetails'],
  missing_field: ['RangeDetails'],
  too_large: ['RangeDetails', 'EstimateDetails'],
  conflicting_givens: ['SudokuConflictDetails'],
  unknown_word: ['UnknownWordDetails'],
  length_mismatch: ['LengthMismatchDetails'],
  not_acceptable: ['MediaTypesDetails'],
} as const satisfies Partial<Record<ErrorCode, readonly (keyof Schemas)[]>>;

/** The details an error of code C may carry (never: none). */
export type DetailsOf<C extends string> = C extends keyof typeof ERROR_DETAILS ? Schemas[(typeof ERROR_DETAILS)[C][number]] : never;
