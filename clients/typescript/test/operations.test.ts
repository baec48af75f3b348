// Every operation of openapi.yaml called through the client against a live puzzled, each answer
// checked against an independent fact (brute-force ranks, permutations of the input, knight moves,
// one letter per rung, sudoku rules). The table is keyed by the generated operation ids, so the
// compiler refuses a new endpoint without a case; at run time the spec's operations are enumerated
// from openapi.yaml, and each (method, path) must have been fetched by the client.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { createClient, toBigInt, type PuzzledClient } from '../src/index.js';
import type { operations } from '../src/generated/openapi.js';
import { startPuzzled, type Puzzled } from './server.js';

const SPEC_TEXT = readFileSync(new URL('../../../../openapi.yaml', import.meta.url), 'utf8');
// The playground's copy of this client's bundle, which the binary serves as it is.
const WEB_BUNDLE_TEXT = readFileSync(new URL('../../../../web/vendor/puzzled-client/puzzled-client.min.js', import.meta.url), 'utf8');

// ---- independent references ----
function permutationsOf<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutationsOf([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}
function combinationsOf<T>(items: T[], k: number): T[][] {
  if (k === 0) return [[]];
  return items.flatMap((item, i) => combinationsOf(items.slice(i + 1), k - 1).map((rest) => [item, ...rest]));
}
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const lettersChanged = (a: string, b: string) => [...a].filter((letter, i) => b[i] !== letter).length;
const isKnightMove = ([r1, c1]: number[], [r2, c2]: number[]) => {
  const dr = Math.abs(r1! - r2!), dc = Math.abs(c1! - c2!);
  return (dr === 1 && dc === 2) || (dr === 2 && dc === 1);
};
function queensAttack(columns: number[]): boolean {
  return columns.some((a, i) => columns.slice(i + 1).some((b, d) => a === b || Math.abs(a - b) === d + 1));
}
// A completed 9 x 9 grid (81 digits) that keeps every given of `puzzle` and repeats no digit in a unit.
function assertSolves(solution: string, puzzle: string) {
  assert.match(solution, /^[1-9]{81}$/);
  [...puzzle].forEach((given, i) => { if (given !== '.' && given !== '0') assert.equal(solution[i], given, `given ${i}`); });
  for (let unit = 0; unit < 9; unit++) {
    const row = range(0, 9).map((c) => solution[unit * 9 + c]);
    const col = range(0, 9).map((r) => solution[r * 9 + unit]);
    const box = range(0, 9).map((i) => solution[(Math.floor(unit / 3) * 3 + Math.floor(i / 3)) * 9 + (unit % 3) * 3 + (i % 3)]);
    for (const cells of [row, col, box]) assert.equal(new Set(cells).size, 9, `unit ${unit}: ${cells.join('')}`);
  }
}

const HARD_PUZZLE = '....7..8..2...6.............3...9.16..765.9..9...3.5...761...325.2..3...3..7..6.5';
const KNIGHT_PATH_3X4 = [[0, 0], [1, 2], [2, 0], [0, 1], [1, 3], [2, 1], [0, 2], [2, 3], [1, 1], [0, 3], [2, 2], [1, 0]];

const text = async (answer: Promise<unknown>) => {
  const value = await answer;
  assert.equal(typeof value, 'string');
  assert.ok((value as string).length > 0);
  return value as string;
};
const preflight = (path: Parameters<PuzzledClient['preflight']>[0], method: string) => async (client: PuzzledClient) => {
  const headers = await client.preflight(path);
  assert.ok((headers.get('Allow') ?? '').split(/, */).includes(method), `${path}: Allow ${headers.get('Allow')}`);
};

type Case = (client: PuzzledClient) => Promise<void>;
const cases = {
  getHealth: async (c) => assert.deepEqual(await c.get('/healthz'), { status: 'ok' }),
  getReadiness: async (c) => assert.equal((await c.get('/readyz')).status, 'ready'),
  getOpenApi: async (c) => assert.equal(await c.get('/openapi.yaml'), SPEC_TEXT),
  getMetrics: async (c) => assert.match(await text(c.get('/metrics')), /^puzzled_requests_in_flight \d+$/m),
  getPlayground: async (c) => assert.match(await text(c.get('/')), /<html/i),
  getDocs: async (c) => assert.match(await text(c.get('/docs')), /<html/i),
  getPlaygroundStyle: async (c) => void await text(c.get('/playground.css')),
  getPlaygroundScript: async (c) => void await text(c.get('/playground.js')),
  getAnswersScript: async (c) => void await text(c.get('/answers.js')),
  getPicturesScript: async (c) => void await text(c.get('/pictures.js')),
  getDocsStyle: async (c) => void await text(c.get('/docs.css')),
  getPlayScript: async (c) => void await text(c.get('/play.js')),
  getMarkdownScript: async (c) => void await text(c.get('/markdown.js')),
  getSpecWorkerScript: async (c) => void await text(c.get('/spec-worker.js')),
  getJsYamlScript: async (c) => void await text(c.get('/vendor/js-yaml.js')),
  getPuzzledClientScript: async (c) => assert.equal(await text(c.get('/vendor/puzzled-client.js')), WEB_BUNDLE_TEXT),

  getShuffle: async (c) => {
    const answer = await c.get('/shuffle', { n: 54, start: 1, seed: '42' });
    assert.ok('items' in answer && answer.seed === '42');
    assert.deepEqual(sorted(answer.items as number[]), range(1, 54), 'a shuffle holds each value once');
    assert.deepEqual(await c.post('/shuffle', { n: 54, start: 1, seed: '42' }), answer, 'the same seed, the same shuffle by POST');
  },
  postShuffle: async (c) => {
    const answer = await c.post('/shuffle', { items: ['ace', 'king', 'queen', 'jack'], count: 3, seed: '12345678901234567890' });
    assert.ok(answer.kind === 'shuffles');
    for (const shuffle of answer.shuffles) assert.deepEqual([...shuffle].sort(), ['ace', 'jack', 'king', 'queen']);
  },
  getPermutations: async (c) => {
    const answer = await c.get('/permutations', { items: [1, 2, 3] });
    assert.ok(answer.kind === 'permutations');
    assert.equal(answer.total, '6');
    assert.deepEqual(answer.permutations, permutationsOf([1, 2, 3]), 'all of them, in lexicographic order');
  },
  postPermutations: async (c) => {
    const answer = await c.post('/permutations', { text: 'aabb', distinct: true });
    const distinct = [...new Set(permutationsOf([...'aabb']).map((p) => p.join('')))].sort();
    assert.ok(answer.kind === 'permutations');
    assert.equal(toBigInt(answer.total), BigInt(distinct.length));
    assert.deepEqual(answer.permutations, distinct);
  },
  getPermutationRank: async (c) => {
    const all = permutationsOf([1, 2, 3, 4]);
    const answer = await c.get('/permutation/rank', { permutation: [3, 1, 4, 2] });
    assert.deepEqual(answer, { kind: 'rank', rank: String(all.findIndex((p) => p.join() === '3,1,4,2')), total: '24' });
  },
  postPermutationRank: async (c) => {
    const all = permutationsOf([1, 2, 3]);
    assert.deepEqual(await c.post('/permutation/rank', { permutation: [3, 1, 2] }), { kind: 'rank', rank: String(all.findIndex((p) => p.join() === '3,1,2')), total: '6' });
  },
  getPermutationUnrank: async (c) => {
    assert.deepEqual((await c.get('/permutation/unrank', { items: [1, 2, 3, 4], rank: '17' })).permutation, permutationsOf([1, 2, 3, 4])[17]);
  },
  postPermutationUnrank: async (c) => {
    assert.deepEqual(await c.post('/permutation/unrank', { items: [1, 2, 3], rank: '4' }), { kind: 'permutation_unrank', permutation: permutationsOf([1, 2, 3])[4], total: '6' });
  },
  getCombinations: async (c) => {
    const answer = await c.get('/combinations', { items: [1, 2, 3, 4], k: 2 });
    assert.deepEqual(answer, { kind: 'combinations', total: '6', next_offset: null, combinations: combinationsOf([1, 2, 3, 4], 2) });
  },
  postCombinations: async (c) => {
    assert.deepEqual(await c.post('/combinations', { items: [5, 4, 3, 2, 1], k: 3 }), { kind: 'combinations', total: '10', next_offset: null, combinations: combinationsOf([1, 2, 3, 4, 5], 3) });
  },
  getCombinationRank: async (c) => {
    const all = combinationsOf([1, 2, 3, 5], 2);
    assert.deepEqual(await c.get('/combination/rank', { items: [5, 1, 3, 2], combination: [5, 2] }), { kind: 'rank', rank: String(all.findIndex((x) => x.join() === '2,5')), total: '6' });
  },
  postCombinationRank: async (c) => {
    const all = combinationsOf([1, 2, 3, 4, 5, 6], 3);
    assert.deepEqual(await c.post('/combination/rank', { items: [1, 2, 3, 4, 5, 6], combination: [2, 4, 6] }), { kind: 'rank', rank: String(all.findIndex((x) => x.join() === '2,4,6')), total: '20' });
  },
  getCombinationUnrank: async (c) => {
    assert.deepEqual((await c.get('/combination/unrank', { items: [5, 1, 3, 2], k: 2, rank: '4' })).combination, combinationsOf([1, 2, 3, 5], 2)[4]);
  },
  postCombinationUnrank: async (c) => {
    assert.deepEqual((await c.post('/combination/unrank', { items: [1, 2, 3, 4, 5, 6], k: 3, rank: '11' })).combination, combinationsOf([1, 2, 3, 4, 5, 6], 3)[11]);
  },
  getQueens: async (c) => {
    const answer = await c.get('/queens', { n: 6 });
    assert.ok(typeof answer !== 'string' && answer.kind === 'queens_solutions');
    assert.equal(answer.solutions.length, 4, 'solutions of 6 queens (OEIS A000170)');
    for (const columns of answer.solutions) assert.ok(!queensAttack(columns), `attacking queens ${columns}`);
  },
  postQueens: async (c) => {
    const answer = await c.post('/queens', { n: 8, mode: 'count' });
    assert.ok(typeof answer !== 'string' && answer.kind === 'queens_count');
    assert.equal(answer.total, '92', 'solutions of 8 queens (OEIS A000170)');
  },
  postQueensVerify: async (c) => {
    const answer = await c.post('/queens/verify', { n: 8, queens: [0, 4, 7, 5, 2, 6, 1, 3] });
    assert.equal(answer.valid, !queensAttack([0, 4, 7, 5, 2, 6, 1, 3]));
  },
  getKnightTour: async (c) => {
    const answer = await c.get('/knight-tour', { rows: 5, cols: 6 });
    assert.ok(typeof answer !== 'string' && 'path' in answer && answer.path);
    assert.equal(new Set(answer.path.map(String)).size, 30);
    answer.path.slice(1).forEach((square, i) => assert.ok(isKnightMove(answer.path![i]!, square), `move ${i + 1}`));
  },
  postKnightTour: async (c) => {
    const answer = await c.post('/knight-tour', { rows: 5, cols: 6, closed: true, format: 'board' });
    assert.ok(typeof answer !== 'string' && 'board' in answer && answer.board);
    assert.deepEqual(sorted(answer.board.flat()), range(1, 30), 'the board numbers each square once');
  },
  postKnightTourVerify: async (c) => {
    assert.equal((await c.post('/knight-tour/verify', { rows: 3, cols: 4, path: KNIGHT_PATH_3X4 })).valid, true);
  },
  getSudokuGenerate: async (c) => {
    const answer = await c.get('/sudoku/generate', { seed: '42' });
    assert.ok(typeof answer !== 'string' && 'puzzle' in answer && answer.solution !== undefined);
    assertSolves(answer.solution, answer.puzzle);
  },
  postSudokuGenerate: async (c) => {
    const answer = await c.post('/sudoku/generate', { box: 3, seed: '42', difficulty: 'expert', symmetry: 'rotate180' });
    assert.ok(typeof answer !== 'string' && 'puzzle' in answer && answer.solution !== undefined);
    assertSolves(answer.solution, answer.puzzle);
  },
  getSudokuSolve: async (c) => {
    const answer = await c.get('/sudoku/solve', { puzzle: HARD_PUZZLE });
    assert.ok(typeof answer !== 'string' && 'solution' in answer && typeof answer.solution === 'string');
    assertSolves(answer.solution, HARD_PUZZLE);
  },
  postSudokuSolve: async (c) => {
    const answer = await c.post('/sudoku/solve', { puzzle: HARD_PUZZLE });
    assert.ok(typeof answer !== 'string' && 'solution' in answer && typeof answer.solution === 'string');
    assertSolves(answer.solution, HARD_PUZZLE);
  },
  getSudokuCheck: async (c) => {
    const answer = await c.get('/sudoku/check', { puzzle: '1.1.............' });
    assert.equal(answer.solvable, false);
    assert.deepEqual(answer.conflicts.map((conflict) => conflict.cells), [[[0, 0], [0, 2]]]);
  },
  postSudokuCheck: async (c) => {
    const answer = await c.post('/sudoku/check', { puzzle: HARD_PUZZLE });
    assert.deepEqual([answer.conflicts.length, answer.solvable, answer.solved], [0, true, false]);
  },
  getSudokuHint: async (c) => {
    const answer = await c.get('/sudoku/hint', { puzzle: HARD_PUZZLE });
    assert.ok(answer.step?.place);
    const [row, col] = answer.step.place.cell;
    const solved = await c.post('/sudoku/solve', { puzzle: HARD_PUZZLE });
    assert.ok(typeof solved !== 'string' && 'solution' in solved && typeof solved.solution === 'string');
    assert.equal(solved.solution[row! * 9 + col!], String(answer.step.place.value), 'the hint agrees with the solution');
  },
  postSudokuHint: async (c) => {
    assert.ok((await c.post('/sudoku/hint', { puzzle: HARD_PUZZLE })).step?.technique);
  },
  getSudokuExplain: async (c) => {
    const puzzle = '.....4.1....3.2.';
    const answer = await c.get('/sudoku/explain', { puzzle });
    assert.equal(answer.steps.filter((step) => step.place).length, [...puzzle].filter((cell) => cell === '.').length, 'one placement per empty cell');
  },
  postSudokuExplain: async (c) => {
    assert.ok((await c.post('/sudoku/explain', { puzzle: '.....4.1....3.2.' })).steps.length > 0);
  },
  getWordLadder: async (c) => {
    const answer = await c.get('/word-ladder', { from: 'cold', to: 'warm' });
    assert.ok('ladder' in answer && answer.ladder);
    assert.deepEqual([answer.ladder[0], answer.ladder.at(-1)], ['cold', 'warm']);
    answer.ladder.slice(1).forEach((word, i) => assert.equal(lettersChanged(answer.ladder![i]!, word), 1, `rung ${i + 1}`));
  },
  postWordLadder: async (c) => {
    const answer = await c.post('/word-ladder', { from: 'cold', to: 'warm', all: true, limit: 2 });
    assert.ok('ladders' in answer && answer.ladders);
    for (const ladder of answer.ladders) ladder.slice(1).forEach((word, i) => assert.equal(lettersChanged(ladder[i]!, word), 1));
  },
  postWordLadderVerify: async (c) => {
    assert.equal((await c.post('/word-ladder/verify', { ladder: ['cold', 'cord', 'card', 'ward', 'warm'] })).valid, true);
  },
  getWordLadderNeighbours: async (c) => {
    const answer = await c.get('/word-ladder/neighbours', { word: 'cold' });
    assert.ok('neighbours' in answer && answer.neighbours.length > 0);
    for (const word of answer.neighbours) assert.equal(lettersChanged('cold', word), 1, word);
  },
  postWordLadderNeighbours: async (c) => {
    const answer = await c.post('/word-ladder/neighbours', { word: 'warm' });
    assert.ok('neighbours' in answer && answer.neighbours.includes('ward'));
  },
  getWordLadderPuzzle: async (c) => {
    const answer = await c.get('/word-ladder/puzzle', { length: 4, steps: 3, seed: '7' });
    assert.ok('found' in answer && answer.from !== undefined && answer.to !== undefined);
    const ladder = await c.post('/word-ladder', { from: answer.from, to: answer.to });
    assert.ok('steps' in ladder);
    assert.equal(ladder.steps, 3, 'the shortest ladder has the steps asked for');
  },
  postWordLadderPuzzle: async (c) => {
    const answer = await c.post('/word-ladder/puzzle', { length: 5, steps: 6, seed: 1 });
    assert.ok('from' in answer && answer.steps === 6);
  },

  preflightHealth: preflight('/healthz', 'GET'),
  preflightReadiness: preflight('/readyz', 'GET'),
  preflightOpenApi: preflight('/openapi.yaml', 'GET'),
  preflightMetrics: preflight('/metrics', 'GET'),
  preflightPlayground: preflight('/', 'GET'),
  preflightDocs: preflight('/docs', 'GET'),
  preflightPlaygroundStyle: preflight('/playground.css', 'GET'),
  preflightPlaygroundScript: preflight('/playground.js', 'GET'),
  preflightAnswersScript: preflight('/answers.js', 'GET'),
  preflightPicturesScript: preflight('/pictures.js', 'GET'),
  preflightDocsStyle: preflight('/docs.css', 'GET'),
  preflightPlayScript: preflight('/play.js', 'GET'),
  preflightMarkdownScript: preflight('/markdown.js', 'GET'),
  preflightSpecWorkerScript: preflight('/spec-worker.js', 'GET'),
  preflightJsYamlScript: preflight('/vendor/js-yaml.js', 'GET'),
  preflightPuzzledClientScript: preflight('/vendor/puzzled-client.js', 'GET'),
  preflightShuffle: preflight('/shuffle', 'POST'),
  preflightPermutations: preflight('/permutations', 'POST'),
  preflightPermutationRank: preflight('/permutation/rank', 'POST'),
  preflightPermutationUnrank: preflight('/permutation/unrank', 'POST'),
  preflightCombinations: preflight('/combinations', 'POST'),
  preflightCombinationRank: preflight('/combination/rank', 'POST'),
  preflightCombinationUnrank: preflight('/combination/unrank', 'POST'),
  preflightQueens: preflight('/queens', 'POST'),
  preflightQueensVerify: preflight('/queens/verify', 'POST'),
  preflightKnightTour: preflight('/knight-tour', 'POST'),
  preflightKnightTourVerify: preflight('/knight-tour/verify', 'POST'),
  preflightSudokuGenerate: preflight('/sudoku/generate', 'POST'),
  preflightSudokuSolve: preflight('/sudoku/solve', 'POST'),
  preflightSudokuCheck: preflight('/sudoku/check', 'POST'),
  preflightSudokuHint: preflight('/sudoku/hint', 'POST'),
  preflightSudokuExplain: preflight('/sudoku/explain', 'POST'),
  preflightWordLadder: preflight('/word-ladder', 'POST'),
  preflightWordLadderVerify: preflight('/word-ladder/verify', 'POST'),
  preflightWordLadderNeighbours: preflight('/word-ladder/neighbours', 'POST'),
  preflightWordLadderPuzzle: preflight('/word-ladder/puzzle', 'POST'),
} satisfies Record<keyof operations, Case>;

// ---- the run ----
let server: Puzzled;
const fetched = new Set<string>(); // "METHOD /path" of every request the client sent
let client: PuzzledClient;
before(async () => {
  server = await startPuzzled();
  client = createClient({
    baseUrl: server.url,
    hooks: [{ onRequest(request) { fetched.add(`${request.method} ${new URL(request.url).pathname}`); } }],
  });
});
after(async () => assert.equal(await server.stop(), 0, 'puzzled stops cleanly'));

interface SpecOperation { operationId: string; method: string; path: string }
const specOperations: SpecOperation[] = Object.entries(parse(SPEC_TEXT).paths as Record<string, Record<string, { operationId?: string }>>)
  .flatMap(([path, item]) => Object.entries(item).filter(([, op]) => op.operationId !== undefined)
    .map(([method, op]) => ({ operationId: op.operationId!, method: method.toUpperCase(), path })));

for (const [operationId, run] of Object.entries(cases)) test(operationId, () => run(client));

test('every operation of openapi.yaml has a case, and each was sent by the client', () => {
  assert.ok(specOperations.length >= 80, `only ${specOperations.length} operations read from openapi.yaml`);
  assert.deepEqual(Object.keys(cases).sort(), specOperations.map((op) => op.operationId).sort());
  const missed = specOperations.filter((op) => !fetched.has(`${op.method} ${op.path}`)).map((op) => `${op.operationId} (${op.method} ${op.path})`);
  assert.deepEqual(missed, [], 'operations never sent through the client');
});
