// NDJSON (one JSON value per line) read from a response as an AsyncIterable of values, one chunk of
// lines in memory at a time (lineBatches). The request is sent when the iteration starts; an answer
// that is not NDJSON is a PuzzledError `bad_response`, and so is a line that is not JSON (named by its
// number). A stream that stopped early ends with a line {"error": {...}}: it is thrown as the
// PuzzledError it describes; a transfer that broke off is a PuzzledError `stream_cut`. Blank lines
// are skipped. An abort stops the iteration at once, also within a chunk.
import { errorFromBody, isStreamEnd, parseJson, PuzzledError, streamCut } from './errors.js';
import { lineBatches } from './lines.js';
import { mediaType, NDJSON } from './media.js';

/** Every value of an NDJSON text held whole (the result of a progress stream of bulk /sudoku/solve). */
export function ndjsonArray<T>(text: string, status: number): T[] {
  return text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '').map((line, i) => parseJson<T>(line, status, `NDJSON line ${i + 1}`));
}

export async function* ndjsonValues<T>(send: () => Promise<Response>, signal?: AbortSignal): AsyncGenerator<T, void, undefined> {
  const response = await send();
  if (mediaType(response) !== NDJSON || response.body === null) {
    await response.body?.cancel();
    throw new PuzzledError(response.status, 'bad_response', `the answer is ${mediaType(response) || 'without a body'}, not NDJSON`);
  }
  let lineNumber = 0;
  const batches = lineBatches(response.body);
  try {
    for (;;) {
      let next: IteratorResult<string[], void>;
      try {
        next = await batches.next();
      } catch (cause) {
        throw streamCut(response.status, cause, signal);
      }
      if (next.done) return;
      for (const line of next.value) {
        lineNumber++;
        signal?.throwIfAborted();
        if (line.trim() === '') continue;
        const value = parseJson<T>(line, response.status, `NDJSON line ${lineNumber}`);
        if (isStreamEnd(value)) throw errorFromBody(response.status, value, response.headers);
        yield value;
      }
    }
  } finally {
    await batches.return(undefined); // cancels the body when the reading stops early
  }
}
