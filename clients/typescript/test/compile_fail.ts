// The compile-fail test: each line below must be a type error, and tsc (run on test/ by test.sh)
// fails if one is not (an unused `@ts-expect-error` is itself an error). Never run: the function is
// only type-checked.
import { createClient } from '../src/index.js';

export async function misuses(): Promise<void> {
  const client = createClient({ baseUrl: 'http://localhost:8080' });
  // @ts-expect-error a misspelt field in a body
  await client.post('/permutation/rank', { permutaton: [3, 1, 2] });
  // @ts-expect-error a misspelt query parameter
  await client.get('/queens', { n: 8, limt: 3 });
  // @ts-expect-error a wrong value type: n is a number
  await client.post('/queens', { n: '8' });
  // @ts-expect-error a wrong value type: an enum outside its values
  await client.post('/queens', { n: 8, mode: 'every' });
  // @ts-expect-error a required field missing (the ladder's end)
  await client.post('/word-ladder', { from: 'cold' });
  // @ts-expect-error a path that does not exist
  await client.get('/queen', { n: 8 });
  // @ts-expect-error GET on a POST-only endpoint
  await client.get('/queens/verify', {});
  // @ts-expect-error streaming an endpoint that has no NDJSON answer
  client.stream('/permutation/rank', { permutation: [3, 1, 2] });
  // @ts-expect-error a misspelt field in a progress call
  client.progress('/queens', { n: 8, mdoe: 'count' });
  // @ts-expect-error a text body where the endpoint takes only JSON
  client.progress('/queens', '8');
  for await (const event of client.progress('/sudoku/solve', '....\n')) {
    // @ts-expect-error the result of a bulk solve is an array of lines, not one answer
    if (event.type === 'result') void event.result.solution;
  }
  const rank = await client.post('/permutation/rank', { permutation: [3, 1, 2] });
  // @ts-expect-error a misspelt field of an answer
  void rank.rnak;
  // @ts-expect-error big integers are decimal strings, not numbers
  const total: number = rank.total;
  void total;
}
