// The offset type test: `offset` is one type on every list endpoint and method (openapi.yaml's
// ListOffset: a number, or a decimal string for any size), and the same `next_offset` of an answer
// feeds the next page's request. Each `@ts-expect-error` line must be a type error (tsc, run on
// test/ by test.sh, fails on an unused one). Never run: the function is only type-checked.
import { createClient } from '../src/index.js';

export async function offsets(): Promise<void> {
  const client = createClient({ baseUrl: 'http://localhost:8080' });
  await client.get('/permutations', { text: 'abc', offset: 1 });
  await client.get('/permutations', { text: 'abc', offset: '1' });
  await client.post('/permutations', { text: 'abc', offset: 1 });
  await client.post('/permutations', { text: 'abc', offset: '1' });
  await client.get('/combinations', { text: 'abcd', k: 2, offset: 1 });
  await client.get('/combinations', { text: 'abcd', k: 2, offset: '1' });
  await client.post('/combinations', { text: 'abcd', k: 2, offset: 1 });
  await client.post('/combinations', { text: 'abcd', k: 2, offset: '1' });
  await client.get('/queens', { n: 8, offset: 1 });
  await client.get('/queens', { n: 8, offset: '1' });
  await client.post('/queens', { n: 8, offset: 1 });
  await client.post('/queens', { n: 8, offset: '1' });
  for await (const line of client.stream('/queens', { n: 8, offset: '1' })) void line;

  // Each list answer's next_offset is the next request's offset, as it is, or null after the last.
  const permutations = await client.get('/permutations', { text: 'abcd', limit: 2 });
  const permutationsNext: string | null = permutations.next_offset;
  if (permutations.next_offset !== null) await client.get('/permutations', { text: 'abcd', limit: 2, offset: permutations.next_offset });
  const combinations = await client.post('/combinations', { text: 'abcd', k: 2, limit: 2 });
  if (combinations.next_offset !== null) await client.post('/combinations', { text: 'abcd', k: 2, offset: combinations.next_offset });
  const queens = await client.get('/queens', { n: 8, limit: 2 });
  if (queens.next_offset !== null) await client.post('/queens', { n: 8, limit: 2, offset: queens.next_offset });
  void permutationsNext;

  // @ts-expect-error an offset is a number or a string of digits, not a boolean
  await client.get('/queens', { n: 8, offset: true });
  // @ts-expect-error nor an array
  await client.post('/combinations', { text: 'abcd', k: 2, offset: [1] });
  // @ts-expect-error next_offset may be null after the last page: it must be checked first
  await client.get('/permutations', { text: 'abcd', offset: permutations.next_offset });
}
