// The reference app (examples/sudoku-react, built here with `npm run build`, tsc then vite build,
// against the packed client that test.sh installed into it) played in Debian's chromium through
// playwright-core, from a page on its own origin: a new simple puzzle; a digit that repeats a given
// of its row, which Check marks and Hint refuses with the typed error conflicting_givens; the arrow
// keys; three hints, each placing the value of the solution; every other cell typed in until the
// app declares the win; then an empty grid's Solve (counting its solutions, up to 10^9) followed by
// its progress bar and cancelled, which the service's /metrics shows ended; and a puzzle solved by
// the service. The solution is the test's own (a plain backtracking search), and the final grid is
// checked against the rules by the test, not by the service.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, serveFolder, type Site } from './chromium.js';
import { metric, startPuzzled, type Puzzled } from './server.js';

const APP = fileURLToPath(new URL('../../examples/sudoku-react/', import.meta.url));
const BUILD_TIMEOUT_MS = 300_000;
// Long enough that the cancelled count cannot end by itself first: Cancel is what ends it.
const SERVICE_TIME_LIMIT_MS = 600_000;

let puzzled: Puzzled;
let pages: Site;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  puzzled = await startPuzzled(['--time-limit-ms', String(SERVICE_TIME_LIMIT_MS)]);
  await promisify(execFile)('npm', ['run', 'build', '--silent'], { cwd: APP, env: { ...process.env, VITE_PUZZLED_URL: puzzled.url }, timeout: BUILD_TIMEOUT_MS });
  pages = await serveFolder(`${APP}dist`);
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (message) => { if (message.type() === 'error') pageErrors.push(message.text()); });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(pages.url);
});

after(async () => {
  await browser?.close();
  await pages?.close();
  assert.equal(await puzzled.stop(), 0, 'puzzled stops cleanly');
  // Chromium logs each non-2xx fetch as a console error: the refused hint's 422 is the only one allowed.
  assert.equal(pageErrors.length, 1, `one error in the page: ${pageErrors.join('; ')}`);
  assert.match(pageErrors[0]!, /^Failed to load resource: the server responded with a status of 422 /);
});

// ---- the test's own Sudoku rules and search ----
const peers = (index: number): number[] => {
  const row = Math.floor(index / 9), column = index % 9, box = Math.floor(row / 3) * 27 + Math.floor(column / 3) * 3;
  return Array.from({ length: 9 }, (_, i) => [row * 9 + i, i * 9 + column, box + Math.floor(i / 3) * 9 + (i % 3)]).flat().filter((p) => p !== index);
};
function solveByBacktracking(cells: number[]): number[] | null {
  const empty = cells.indexOf(0);
  if (empty < 0) return cells;
  for (let value = 1; value <= 9; value++) {
    if (peers(empty).some((p) => cells[p] === value)) continue;
    const next = cells.slice();
    next[empty] = value;
    const solved = solveByBacktracking(next);
    if (solved) return solved;
  }
  return null;
}
const followsTheRules = (cells: number[]): boolean =>
  cells.every((value, index) => value >= 1 && value <= 9 && peers(index).every((p) => cells[p] !== value));

// ---- the page ----
const cellInputs = (p: Page) => p.locator('.board input');
async function grid(p: Page): Promise<{ cells: number[]; givens: boolean[] }> {
  const read = await cellInputs(p).evaluateAll((inputs) => (inputs as HTMLInputElement[]).map((input) => ({ value: input.value, given: input.classList.contains('given') })));
  return { cells: read.map((cell) => Number(cell.value || 0)), givens: read.map((cell) => cell.given) };
}
const status = (p: Page) => p.getByRole('status');
async function click(p: Page, name: string) { await p.getByRole('button', { name, exact: true }).click(); }

let puzzle: { cells: number[]; givens: boolean[] };
let solution: number[];

test('a new simple puzzle: givens read-only, the rest empty, and the test\'s own search solves it', async () => {
  await page.getByLabel('Difficulty').selectOption('simple');
  await click(page, 'New puzzle');
  await status(page).filter({ hasText: /^A new simple puzzle with \d+ givens\.$/ }).waitFor();
  puzzle = await grid(page);
  assert.ok(puzzle.givens.some(Boolean) && puzzle.cells.some((value) => value === 0));
  assert.deepEqual(puzzle.givens, puzzle.cells.map((value) => value !== 0));
  solution = solveByBacktracking(puzzle.cells)!;
  assert.ok(solution !== null && followsTheRules(solution));
});

test('a digit that repeats a given of its row: Check marks it, Hint answers the typed error conflicting_givens', async () => {
  const empty = puzzle.cells.findIndex((value) => value === 0);
  const row = Math.floor(empty / 9);
  const repeated = puzzle.cells.slice(row * 9, row * 9 + 9).find((value) => value !== 0)!;
  const cell = cellInputs(page).nth(empty);
  await cell.focus();
  await page.keyboard.press(String(repeated));
  assert.equal(await cell.inputValue(), String(repeated));
  await click(page, 'Check');
  await status(page).filter({ hasText: /conflict/ }).waitFor();
  assert.equal(await cell.getAttribute('aria-invalid'), 'true');
  await click(page, 'Hint');
  await page.getByRole('alert').filter({ hasText: /^conflicting_givens: / }).waitFor();
  await cell.focus();
  await page.keyboard.press('Backspace');
  assert.equal(await cell.inputValue(), '');
  assert.deepEqual((await grid(page)).cells, puzzle.cells);
});

test('the arrow keys move between cells, and the cells are labelled by row and column', async () => {
  await cellInputs(page).nth(40).focus();
  for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowLeft', 'ArrowUp', 'ArrowUp']) await page.keyboard.press(key);
  assert.match(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''), /^Row 4, column 4(, given)?$/);
});

test('three hints, each placing the value of the solution in an empty cell', async () => {
  for (let hint = 1; hint <= 3; hint++) {
    const before = (await grid(page)).cells;
    await click(page, 'Hint');
    await page.waitForFunction((filled) => [...document.querySelectorAll<HTMLInputElement>('.board input')].filter((input) => input.value !== '').length > filled,
      before.filter((value) => value !== 0).length);
    const after = (await grid(page)).cells;
    const placed = after.flatMap((value, index) => (value !== before[index] ? [index] : []));
    assert.equal(placed.length, 1, `hint ${hint} placed one value`);
    assert.equal(before[placed[0]!], 0);
    assert.equal(after[placed[0]!], solution[placed[0]!], `hint ${hint} placed the solution's value`);
    assert.match(await status(page).innerText(), /^Hint \(/);
  }
});

test('every other cell typed in: the app declares the win, and the grid follows the rules', async () => {
  const { cells } = await grid(page);
  for (const [index, value] of cells.entries()) {
    if (value !== 0) continue;
    await cellInputs(page).nth(index).focus();
    await page.keyboard.press(String(solution[index]));
  }
  await page.locator('main[data-state=won]').waitFor();
  assert.match(await status(page).innerText(), /^Solved: /);
  const final = await grid(page);
  assert.ok(followsTheRules(final.cells));
  assert.ok(puzzle.cells.every((value, index) => value === 0 || final.cells[index] === value), 'the givens are kept');
});

test('Solve on an empty grid: its progress bar moves, Cancel ends it, and the service stops the count', async () => {
  await click(page, 'Empty grid');
  await click(page, 'Solve');
  await page.getByLabel('Solving').waitFor();
  await page.waitForFunction(() => Number(document.querySelector('.progress-text')?.textContent?.split(' ')[0] ?? 0) > 0);
  await click(page, 'Cancel');
  await status(page).filter({ hasText: 'Solving cancelled.' }).waitFor();
  assert.equal(await page.getByLabel('Solving').count(), 0, 'the progress bar is gone');
  for (;;) { // until the service has seen the cancel (the test's own time limit bounds the wait)
    const metrics = await (await fetch(`${puzzled.url}/metrics`)).text();
    if (metric(metrics, 'puzzled_progress_computations_in_flight') === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

test('a puzzle solved by the service: the grid is the solution', async () => {
  await click(page, 'New puzzle');
  await status(page).filter({ hasText: /^A new simple puzzle/ }).waitFor();
  const fresh = await grid(page);
  await click(page, 'Solve');
  await page.locator('main[data-state=solved]').waitFor();
  assert.deepEqual((await grid(page)).cells, solveByBacktracking(fresh.cells));
  assert.match(await status(page).innerText(), /only solution/);
});
