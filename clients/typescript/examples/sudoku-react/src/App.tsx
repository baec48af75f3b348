// The game: a new puzzle from /sudoku/generate at the chosen difficulty (or an empty grid to type one
// in), digits entered by keyboard, Check (/sudoku/check marks the conflicts), Hint (/sudoku/hint
// places the next logical value), Solve (/sudoku/solve followed by its progress events, with a
// progress bar and Cancel), and the win once the grid is full and the service finds it solved. The
// service's errors arrive as PuzzledError: its code and message are shown as they are.
import { PuzzledError, type components } from 'puzzled-client';
import { useRef, useState } from 'react';
import { Board } from './Board';
import { CELLS, fromText, indexOf, toText } from './grid';
import { puzzled, PUZZLED_URL } from './puzzled';

type Difficulty = components['schemas']['SudokuDifficultyChoice'];
const DIFFICULTIES: Difficulty[] = ['simple', 'easy', 'intermediate', 'expert', 'any'];
/** Solve counts the solutions up to this many (the service's largest `count_limit`), so a grid with
 * several is told from one with a single solution, and a grid with very many takes a while. */
const COUNT_LIMIT = 1_000_000_000;

type State = 'playing' | 'won' | 'solved';
interface Progress { done: number; total: number | null; unit: string }

export function App() {
  const [difficulty, setDifficulty] = useState<Difficulty>('easy');
  const [cells, setCells] = useState<number[]>(() => new Array(CELLS).fill(0));
  const [givens, setGivens] = useState<boolean[]>(() => new Array(CELLS).fill(false));
  const [conflicts, setConflicts] = useState<ReadonlySet<number>>(new Set());
  const [hinted, setHinted] = useState<number | null>(null);
  const [state, setState] = useState<State>('playing');
  const [message, setMessage] = useState('Choose a difficulty and start a new puzzle, or type one into the empty grid.');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const solving = useRef<AbortController | null>(null);

  // Runs one exchange with the service: one at a time, its error shown.
  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      if (caught instanceof PuzzledError) setError(`${caught.code}: ${caught.message}`);
      else if (caught instanceof DOMException && caught.name === 'AbortError') setMessage('Solving cancelled.');
      else setError(`The service at ${PUZZLED_URL} could not be reached (${String(caught)}).`);
    } finally {
      setBusy(false);
      setProgress(null);
      solving.current = null;
    }
  }

  function start(text: string, isGiven: boolean) {
    const values = fromText(text);
    setCells(values);
    setGivens(values.map((value) => isGiven && value !== 0));
    setConflicts(new Set());
    setHinted(null);
    setState('playing');
  }

  const newPuzzle = () => run(async () => {
    const answer = await puzzled.get('/sudoku/generate', { difficulty }); // a puzzle: no mode asks for a grid
    start(answer.puzzle, true);
    setMessage(`A new ${answer.rating} puzzle with ${answer.givens} givens.`);
  });

  function emptyGrid() {
    start('.'.repeat(CELLS), false);
    setError(null);
    setMessage('An empty grid: type a puzzle in, then Check, Hint or Solve.');
  }

  // Asks the service about the grid: marks the conflicts, and the win when it is full and solved.
  async function check(grid: number[]) {
    const answer = await puzzled.post('/sudoku/check', { puzzle: toText(grid) });
    setConflicts(new Set(answer.conflicts.flatMap((conflict) => conflict.cells.map(indexOf))));
    if (answer.solved) {
      setState('won');
      setMessage('Solved: every row, column and box holds 1 to 9. Well done!');
    } else if (answer.conflicts.length > 0) {
      setMessage(`${answer.conflicts.length} conflict${answer.conflicts.length === 1 ? '' : 's'}: the marked cells repeat a value in a row, column or box.`);
    } else {
      setMessage(`No conflicts so far: ${answer.filled} of ${CELLS} cells filled${answer.solvable ? '' : ', but the grid cannot be finished from here'}.`);
    }
  }

  function enter(index: number, value: number) {
    if (state !== 'playing' || busy) return;
    const next = cells.slice();
    next[index] = value;
    setCells(next);
    setConflicts(new Set());
    setHinted(null);
    if (next.every((v) => v !== 0)) void run(() => check(next));
  }

  const hint = () => run(async () => {
    const { step } = await puzzled.post('/sudoku/hint', { puzzle: toText(cells) });
    if (step === null) { setMessage('The grid is full: nothing left to hint.'); return; }
    const technique = step.technique.replaceAll('_', ' ');
    if (step.place === undefined) {
      setMessage(`Hint: a ${technique} removes candidates from ${step.cells.length} cells; no value can be placed yet.`);
      return;
    }
    const index = indexOf(step.place.cell);
    const next = cells.slice();
    next[index] = step.place.value;
    setCells(next);
    setHinted(index);
    setMessage(`Hint (${technique}): ${step.place.value} at row ${step.place.cell[0]! + 1}, column ${step.place.cell[1]! + 1}.`);
    if (next.every((v) => v !== 0)) await check(next);
  });

  const solve = () => run(async () => {
    const controller = new AbortController();
    solving.current = controller;
    setProgress({ done: 0, total: null, unit: 'solutions' });
    setMessage('Solving...');
    const events = puzzled.progress('/sudoku/solve', { puzzle: toText(cells), count_limit: COUNT_LIMIT }, { signal: controller.signal });
    for await (const event of events) {
      if (event.type === 'progress') { setProgress(event.progress); continue; }
      const answer = event.result;
      if (typeof answer.solution !== 'string') throw new Error('the service sent no solution'); // a string puzzle is solved as a string
      setCells(fromText(answer.solution));
      setConflicts(new Set());
      setState('solved');
      setMessage(answer.unique ? 'Solved by the service: this is the only solution.' : 'Solved by the service: one of several solutions.');
    }
  });

  return (
    <main data-state={state}>
      <h1>Sudoku</h1>
      <div className="controls">
        <label>
          Difficulty{' '}
          <select value={difficulty} onChange={(event) => setDifficulty(event.target.value as Difficulty)} disabled={busy}>
            {DIFFICULTIES.map((d) => <option key={d} value={d}>{d}</option>)}
          </select>
        </label>
        <button type="button" onClick={newPuzzle} disabled={busy}>New puzzle</button>
        <button type="button" onClick={emptyGrid} disabled={busy}>Empty grid</button>
      </div>
      <Board cells={cells} givens={givens} conflicts={conflicts} hinted={hinted} disabled={busy || state !== 'playing'} onEnter={enter} />
      <div className="controls">
        <button type="button" onClick={() => run(() => check(cells))} disabled={busy || state !== 'playing'}>Check</button>
        <button type="button" onClick={hint} disabled={busy || state !== 'playing'}>Hint</button>
        <button type="button" onClick={solve} disabled={busy || state !== 'playing'}>Solve</button>
        {progress !== null && (
          <>
            <label>
              Solving{' '}
              <progress max={progress.total ?? undefined} value={progress.total === null ? undefined : progress.done} />
            </label>
            <span className="progress-text">{progress.done} {progress.unit} found</span>
            <button type="button" onClick={() => solving.current?.abort()}>Cancel</button>
          </>
        )}
      </div>
      <p role="status" className={state === 'won' ? 'message won' : 'message'}>{message}</p>
      {error !== null && <p role="alert" className="error">{error}</p>}
    </main>
  );
}
