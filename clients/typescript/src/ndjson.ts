// NDJSON (one JSON value per line) read from a byte stream as an AsyncIterable of values, one line
// in memory at a time (textLines). Blank lines are skipped; a line that is not JSON ends the iteration
// with a PuzzledError `bad_response` naming the line.
import { parseJson } from './errors.js';
import { textLines } from './lines.js';

export async function* ndjsonValues<T>(body: ReadableStream<Uint8Array>, status: number): AsyncGenerator<T, void, undefined> {
  let lineNumber = 0;
  for await (const line of textLines(body)) {
    lineNumber++;
    if (line.trim() !== '') yield parseJson<T>(line, status, `NDJSON line ${lineNumber}`);
  }
}
