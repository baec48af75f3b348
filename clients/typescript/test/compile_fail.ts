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
  // Each answer is the variant its request selects (src/selection.ts): a field of another variant is an error.
  const count = await client.get('/queens', { n: 8, mode: 'count' });
  // @ts-expect-error mode count answers the total, not the solutions
  void count.solutions;
  const listed = await client.post('/queens', { n: 8 });
  // @ts-expect-error the default mode lists solutions: there is no total
  void listed.total;
  const counted = await client.post('/permutations', { items: [1, 2, 3], count_only: true });
  // @ts-expect-error count_only answers the total alone
  void counted.permutations;
  const either = await client.get('/queens', { n: 8, mode: 'count' as 'count' | 'first' });
  // @ts-expect-error a mode typed as a union answers the union: the total only after narrowing on kind
  void either.total;
  const drawn = await client.get('/queens', { n: 8, mode: 'first', format: 'svg' });
  // @ts-expect-error a drawing is a string (or the JSON answer when there is nothing to draw)
  void drawn.solution;
  const shuffles = await client.post('/shuffle', { n: 5, count: 3 });
  // @ts-expect-error count 3 answers several shuffles, not one's items
  void shuffles.items;
  const grid = await client.post('/sudoku/generate', { mode: 'grid' });
  // @ts-expect-error a finished grid has no puzzle
  void grid.puzzle;
  const ladder = await client.get('/word-ladder', { from: 'cold', to: 'warm' });
  // @ts-expect-error one ladder by default, not every one
  void ladder.ladders;
  const rank = await client.post('/permutation/rank', { permutation: [3, 1, 2] });
  // @ts-expect-error a misspelt field of an answer
  void rank.rnak;
  // @ts-expect-error big integers are decimal strings, not numbers
  const total: number = rank.total;
  void total;
}
