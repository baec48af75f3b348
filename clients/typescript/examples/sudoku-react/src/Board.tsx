// The board: 81 inputs in a grid, each labelled with its row and column. A given is read-only; a
// digit key writes the cell, Backspace, Delete or 0 empties it, the arrow keys move between cells.
// Cells in conflict (from the service's check) are marked invalid for assistive technology too.
import { useRef, type KeyboardEvent } from 'react';
import { CELLS, columnOf, rowOf, SIZE } from './grid';

interface BoardProps {
  cells: readonly number[];
  givens: readonly boolean[];
  conflicts: ReadonlySet<number>;
  hinted: number | null;
  disabled: boolean;
  onEnter(index: number, value: number): void;
}

const MOVES: Record<string, number> = { ArrowUp: -SIZE, ArrowDown: SIZE, ArrowLeft: -1, ArrowRight: 1 };

export function Board({ cells, givens, conflicts, hinted, disabled, onEnter }: BoardProps) {
  const inputs = useRef<(HTMLInputElement | null)[]>([]);

  function onKeyDown(index: number, event: KeyboardEvent<HTMLInputElement>) {
    const move = MOVES[event.key];
    if (move !== undefined) {
      event.preventDefault();
      inputs.current[(index + move + CELLS) % CELLS]?.focus();
    } else if (/^[0-9]$/.test(event.key) && !givens[index]) {
      event.preventDefault();
      onEnter(index, Number(event.key));
    } else if ((event.key === 'Backspace' || event.key === 'Delete') && !givens[index]) {
      event.preventDefault();
      onEnter(index, 0);
    }
  }

  return (
    <div className="board" role="grid" aria-label="Sudoku board">
      {Array.from({ length: SIZE }, (_, row) => (
        <div role="row" key={row} className="row">
          {Array.from({ length: SIZE }, (_, column) => {
            const index = row * SIZE + column;
            const classes = ['cell', givens[index] ? 'given' : 'entered', conflicts.has(index) ? 'conflict' : '',
              hinted === index ? 'hinted' : '', columnOf(index) % 3 === 2 ? 'box-right' : '', rowOf(index) % 3 === 2 ? 'box-bottom' : ''];
            return (
              <div role="gridcell" key={column}>
                <input
                  ref={(element) => { inputs.current[index] = element; }}
                  className={classes.filter(Boolean).join(' ')}
                  aria-label={`Row ${row + 1}, column ${column + 1}${givens[index] ? ', given' : ''}`}
                  aria-invalid={conflicts.has(index)}
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={1}
                  readOnly={givens[index] || disabled}
                  value={cells[index] ? String(cells[index]) : ''}
                  onKeyDown={(event) => onKeyDown(index, event)}
                  onChange={(event) => {
                    const digit = /[1-9]/.exec(event.target.value.slice(-1));
                    if (!givens[index]) onEnter(index, digit ? Number(digit[0]) : 0);
                  }}
                />
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
