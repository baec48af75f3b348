// Each answer's type follows its request alone, against a live puzzled: for every operation whose answer
// is a choice (src/selection.ts) and each of its variants, a real call whose static type is asserted
// exactly (`exact<A, B>()` does not compile when A is wider than B or differs from it), and whose
// answer at run time is that variant (its `kind`, or a string). Absent selecting fields give the
// service's default; a selecting field typed as a union gives the union.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Answer, components, Operation } from '../src/index.js';
import { liveClient } from './server.js';

type S = components['schemas'];
/** Every JSON answer of an operation (no selection applied). */
type Json<P extends '/sudoku/solve' | '/knight-tour', M extends 'get' | 'post'> = Exclude<Answer<Operation<P, M>>, string>;

// True exactly when A and B are the same type (not merely assignable one way).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
/** Compiles only when A is exactly B. */
function exact<A, B>(..._proof: Equal<A, B> extends true ? [] : [never]): void {}

/** The variant an answer is at run time: its kind, or "string" for a drawing or text. */
function variant(answer: { kind: string } | string): string {
  return typeof answer === 'string' ? 'string' : answer.kind;
}

const client = liveClient();

test('/shuffle: one shuffle by default and with count 1, several with a larger count', async () => {
  const one = await client().get('/shuffle', { n: 5, seed: '1' });
  exact<typeof one, S['ShuffleOne']>();
  assert.equal(one.kind, 'shuffle');
  const counted = await client().post('/shuffle', { n: 5, count: 1 });
  exact<typeof counted, S['ShuffleOne']>();
  assert.equal(counted.kind, 'shuffle');
  const many = await client().get('/shuffle', { n: 5, count: 3 });
  exact<typeof many, S['ShuffleMany']>();
  assert.equal(many.shuffles.length, 3);
  const posted = await client().post('/shuffle', { items: ['a', 'b'], count: 2 });
  exact<typeof posted, S['ShuffleMany']>();
  assert.equal(posted.kind, 'shuffles');
  const either = await client().post('/shuffle', { n: 5, count: 2 as number });
  exact<typeof either, S['ShuffleOne'] | S['ShuffleMany']>();
  assert.equal(either.kind, 'shuffles');
});

test('/permutations and /combinations: the list by default, the total alone with count_only', async () => {
  const list = await client().get('/permutations', { items: [1, 2, 3] });
  exact<typeof list, S['PermutationsList']>();
  assert.equal(list.permutations.length, 6);
  const total = await client().post('/permutations', { text: 'abc', count_only: true });
  exact<typeof total, S['PermutationsTotal']>();
  assert.equal(total.kind, 'permutations_total');
  const listed = await client().post('/permutations', { text: 'abc', count_only: false });
  exact<typeof listed, S['PermutationsList']>();
  assert.equal(listed.kind, 'permutations');
  const either = await client().get('/permutations', { items: [1, 2], count_only: true as boolean });
  exact<typeof either, S['PermutationsList'] | S['PermutationsTotal']>();
  assert.equal(either.kind, 'permutations_total');

  const combinations = await client().post('/combinations', { items: [1, 2, 3], k: 2 });
  exact<typeof combinations, S['CombinationsList']>();
  assert.equal(combinations.combinations.length, 3);
  const combinationsTotal = await client().get('/combinations', { items: [1, 2, 3], k: 2, count_only: true });
  exact<typeof combinationsTotal, S['CombinationsTotal']>();
  assert.equal(combinationsTotal.kind, 'combinations_total');
});

test('/queens: each mode its own answer; placed queens may conflict; a drawing is a string, or the JSON answer with nothing to draw', async () => {
  const solutions = await client().get('/queens', { n: 6 });
  exact<typeof solutions, S['QueensSolutions']>();
  assert.equal(solutions.solutions.length, 4);
  const count = await client().get('/queens', { n: 8, mode: 'count' });
  exact<typeof count, S['QueensCount']>();
  assert.equal(count.total, '92');
  // the parts of a split count add up to the whole (OEIS A000170: 14,200 for n = 12), each echoing part and parts
  let sum = 0n;
  for (let part = 0; part < 5; part++) {
    const piece = await client().get('/queens', { n: 12, mode: 'count', part, parts: 5 });
    exact<typeof piece, S['QueensCount']>();
    assert.equal(piece.part, part);
    assert.equal(piece.parts, 5);
    sum += BigInt(piece.total);
  }
  assert.equal(sum, 14200n);
  const first = await client().post('/queens', { n: 12, mode: 'first' });
  exact<typeof first, S['QueensFirst']>();
  assert.equal(first.solution?.length, 12);
  const either = await client().get('/queens', { n: 8, mode: 'count' as 'count' | 'first' });
  exact<typeof either, S['QueensCount'] | S['QueensFirst']>();
  assert.equal(either.kind, 'queens_count');

  const completed = await client().post('/queens', { n: 8, mode: 'first', placed: [[0, 0]] });
  exact<typeof completed, S['QueensFirst'] | S['QueensConflict']>();
  assert.equal(variant(completed), 'queens_first');
  const conflict = await client().post('/queens', { n: 8, placed: [[0, 0], [1, 1]] });
  exact<typeof conflict, S['QueensSolutions'] | S['QueensConflict']>();
  assert.equal(variant(conflict), 'queens_conflict');

  const drawn = await client().get('/queens', { n: 8, mode: 'first', format: 'svg' });
  exact<typeof drawn, string | S['QueensFirst']>();
  assert.equal(variant(drawn), 'string');
  const nothingToDraw = await client().post('/queens', { n: 3, mode: 'first', format: 'svg' });
  exact<typeof nothingToDraw, string | S['QueensFirst']>();
  assert.equal(variant(nothingToDraw), 'queens_first');
  const window = await client().post('/queens', { n: 8, format: 'svg' });
  exact<typeof window, string | S['QueensSolutions']>();
  assert.equal(variant(window), 'string');
  const json = await client().get('/queens', { n: 8, mode: 'first', format: 'json' });
  exact<typeof json, S['QueensFirst']>();
  assert.equal(json.kind, 'queens_first');
});

test('/knight-tour: the data says whether a tour exists; a drawing is a string, or the JSON answer with no tour', async () => {
  const found = await client().get('/knight-tour', { n: 5 });
  exact<typeof found, Json<'/knight-tour', 'get'>>();
  exact<typeof found, S['KnightTourFound'] | S['KnightTourNone']>();
  assert.equal(found.kind, 'knight_tour_found');
  const none = await client().post('/knight-tour', { n: 3 });
  exact<typeof none, S['KnightTourFound'] | S['KnightTourNone']>();
  assert.equal(none.kind, 'knight_tour_none');
  const drawn = await client().post('/knight-tour', { n: 5, format: 'svg' });
  exact<typeof drawn, string | S['KnightTourNone']>();
  assert.equal(variant(drawn), 'string');
  const noTourToDraw = await client().get('/knight-tour', { n: 3, format: 'svg' });
  exact<typeof noTourToDraw, string | S['KnightTourNone']>();
  assert.equal(variant(noTourToDraw), 'knight_tour_none');
});

test('/sudoku/generate: a puzzle by default, a grid with mode grid, a drawing with format svg', async () => {
  const puzzle = await client().get('/sudoku/generate', { seed: '42', box: 2 });
  exact<typeof puzzle, S['SudokuGeneratedPuzzle']>();
  assert.equal(puzzle.kind, 'sudoku_puzzle');
  const grid = await client().post('/sudoku/generate', { seed: '42', box: 2, mode: 'grid' });
  exact<typeof grid, S['SudokuGeneratedGrid']>();
  assert.equal(grid.kind, 'sudoku_grid');
  const drawn = await client().post('/sudoku/generate', { seed: '42', box: 2, format: 'svg' });
  exact<typeof drawn, string>();
  assert.equal(variant(drawn), 'string');
});

test('/sudoku/solve: the JSON solution, a drawing with format svg, text lines for a text body', async () => {
  const solved = await client().get('/sudoku/solve', { puzzle: '1.....3..4.....2' });
  exact<typeof solved, Json<'/sudoku/solve', 'get'>>();
  assert.equal(solved.kind, 'sudoku_solution');
  const posted = await client().post('/sudoku/solve', { puzzle: '1.....3..4.....2' });
  exact<typeof posted, Json<'/sudoku/solve', 'post'>>();
  assert.equal(posted.kind, 'sudoku_solution');
  const drawn = await client().get('/sudoku/solve', { puzzle: '1.....3..4.....2', format: 'svg' });
  exact<typeof drawn, string>();
  assert.equal(variant(drawn), 'string');
  const lines = await client().post('/sudoku/solve', '1.....3..4.....2\n');
  exact<typeof lines, string>();
  assert.equal(JSON.parse(lines).line, 1);
});

test('/word-ladder: one ladder by default, every shortest one with all', async () => {
  const one = await client().get('/word-ladder', { from: 'cold', to: 'warm' });
  exact<typeof one, S['WordLadderOne']>();
  assert.equal(one.kind, 'word_ladder_one');
  const all = await client().post('/word-ladder', { from: 'cold', to: 'warm', all: true });
  exact<typeof all, S['WordLadderAll']>();
  assert.equal(all.kind, 'word_ladder_all');
});

test('progress events end in the answer the body selects', async () => {
  for await (const event of client().progress('/queens', { n: 8, mode: 'count' })) {
    if (event.type !== 'result') continue;
    exact<typeof event.result, S['QueensCount']>();
    assert.equal(event.result.kind, 'queens_count');
  }
  let drawings = 0;
  for await (const event of client().progress('/queens', { n: 8, mode: 'first', format: 'svg' })) {
    if (event.type !== 'result') continue;
    exact<typeof event.result, string | S['QueensFirst']>(); // a drawing, or the JSON answer when nothing is found
    assert.equal(variant(event.result), 'string');
    assert.match(event.result as string, /^<svg[\s>]/);
    drawings++;
  }
  assert.equal(drawings, 1);
});
