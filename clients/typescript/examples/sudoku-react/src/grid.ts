// The 9 x 9 grid as the game holds it (81 numbers in reading order, 0 for an empty cell) and as the
// service writes it (a string of 81 characters, '.' for an empty cell).
export const SIZE = 9;
export const CELLS = SIZE * SIZE;

export function fromText(text: string): number[] {
  return [...text].map((c) => (c >= '1' && c <= '9' ? Number(c) : 0));
}

export function toText(cells: readonly number[]): string {
  return cells.map((value) => (value === 0 ? '.' : String(value))).join('');
}

export const indexOf = ([row, column]: readonly number[]): number => row! * SIZE + column!;
export const rowOf = (index: number): number => Math.floor(index / SIZE);
export const columnOf = (index: number): number => index % SIZE;
