// The narrowing type test: what a caller reads with no cast. A PuzzledError's `details` by its `code`
// (src/error_details.ts), a stream's lines by its body's `text` or `items` (src/selection.ts), and a
// misspelt field refused (its message, which names the fields, is checked in
// test/field_message.test.ts). `exact<A, B>()` compiles only when A is exactly B, and each
// `@ts-expect-error` line must be a type error (tsc, run on test/ by test.sh, fails on an unused one).
// Never run: the function is only type-checked.
import { createClient, PuzzledError, type components } from '../src/index.js';

type S = components['schemas'];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
function exact<A, B>(..._proof: Equal<A, B> extends true ? [] : [never]): void {}

export function details(error: unknown): void {
  if (!(error instanceof PuzzledError)) return;
  // @ts-expect-error before its code is checked, the details are any code's
  void error.details?.cells;
  if (error.code === 'conflicting_givens') {
    exact<typeof error.details, S['SudokuConflictDetails'] | undefined>();
    const cells: number[][] | undefined = error.details?.cells;
    void cells;
  } else if (error.code === 'unknown_word') {
    exact<typeof error.details, S['UnknownWordDetails'] | undefined>();
  } else if (error.code === 'invalid_field' || error.code === 'missing_field') {
    exact<typeof error.details, S['RangeDetails'] | undefined>();
  } else if (error.code === 'too_large') {
    exact<typeof error.details, S['RangeDetails'] | S['EstimateDetails'] | undefined>();
  } else if (error.code === 'length_mismatch') {
    exact<typeof error.details, S['LengthMismatchDetails'] | undefined>();
  } else if (error.code === 'not_acceptable') {
    exact<typeof error.details, S['MediaTypesDetails'] | undefined>();
    const available: string[] | undefined = error.details?.available;
    void available;
  } else if (error.code === 'overloaded') {
    exact<typeof error.details, undefined>();
    // @ts-expect-error a code without details has none to read
    void error.details.min;
  }
  switch (error.code) {
    case 'rate_limited': exact<typeof error.code, 'rate_limited'>(); break;
    case 'stream_cut': exact<typeof error.details, undefined>(); break;
  }
}

export async function lines(): Promise<void> {
  const client = createClient({ baseUrl: 'http://localhost:8080' });
  for await (const line of client.stream('/permutations', { text: 'abc' })) exact<typeof line, string>();
  for await (const line of client.stream('/permutations', { items: [1, 2, 3] })) exact<typeof line, number[]>();
  for await (const line of client.stream('/permutations', { items: ['a', 1, true] })) exact<typeof line, (string | number | boolean)[]>();
  for await (const line of client.stream('/combinations', { text: 'abcd', k: 2 })) exact<typeof line, string>();
  for await (const line of client.stream('/combinations', { items: [1, 2, 3], k: 2 })) exact<typeof line, number[]>();
  for await (const line of client.stream('/shuffle', { items: ['a', 'b'], count: 2 })) exact<typeof line.items, string[]>();
  for await (const line of client.stream('/shuffle', { n: 5 })) exact<typeof line.items, number[]>();
  for await (const line of client.stream('/queens', { n: 8 })) exact<typeof line, S['QueensSolution']>();
  // a body whose fields are not known until run time gives the line of either
  const body: { text: string } | { items: number[] } = Math.random() < 0.5 ? { text: 'ab' } : { items: [1, 2] };
  for await (const line of client.stream('/permutations', body)) exact<typeof line, string | number[]>();
  for await (const line of client.stream('/permutations', { text: 'abc' })) {
    // @ts-expect-error a line of a text is a string, not an array
    void line.map;
  }
  // @ts-expect-error a misspelt field of a stream's body
  client.stream('/permutations', { txet: 'abc' });
}

export async function misspelt(): Promise<void> {
  const client = createClient({ baseUrl: 'http://localhost:8080' });
  // @ts-expect-error a misspelt field of a query
  await client.get('/permutations', { text: 'abc', limt: 3 });
  // @ts-expect-error and of a body
  await client.post('/permutations', { text: 'abc', limt: 3 });
}
