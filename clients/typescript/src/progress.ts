// The progress of a long computation (`Accept: text/event-stream`) as an AsyncIterable: `progress`
// events while it runs, then exactly one `result` carrying the same answer a plain call gives (its
// data is byte for byte the plain answer: a JSON document, or the NDJSON lines of bulk /sudoku/solve,
// which `parseAnswer` turns into values); an `event: failed` is thrown as the PuzzledError of its JSON
// error body (with the stream's status, 200: the service sends errors that arise once the
// computation began, overloaded included, inside the stream). A server that answers plainly instead
// (an endpoint without progress events) gives just the result, so callers need not know which
// endpoints report progress. Unknown event types are skipped for forward compatibility; a stream
// that ends without a result or a failed event is a `bad_response`.
import { errorFromBody, parseJson, PuzzledError } from './errors.js';
import { EVENT_STREAM, JSON_TYPE, mediaType, NDJSON } from './media.js';
import { serverSentEvents } from './sse.js';

/** One `event: progress` of the service. */
export interface Progress {
  /** Units of work done so far. */
  done: number;
  /** Units of work in all, or null when not known in advance. */
  total: number | null;
  /** What a unit is (for example "nodes" or "puzzles"). */
  unit: string;
  elapsed_ms: number;
}

export type ProgressEvent<T> =
  | { type: 'progress'; progress: Progress }
  | { type: 'result'; result: T };

/** The events of the 2xx response that `send` resolves with (sent with the Accept EVENTS_OR_ANY:
 * events, or the plain answer); `parseAnswer` reads the answer's text (the result event's data, or a
 * plain JSON or NDJSON body). */
export async function* progressEvents<T>(send: () => Promise<Response>, parseAnswer: (text: string, status: number) => T): AsyncGenerator<ProgressEvent<T>, void, undefined> {
  const response = await send();
  const status = response.status;
  const type = mediaType(response);
  if (type !== EVENT_STREAM || response.body === null) {
    const text = await response.text();
    yield { type: 'result', result: type === JSON_TYPE || type === NDJSON ? parseAnswer(text, status) : text as T };
    return;
  }
  for await (const event of serverSentEvents(response.body)) {
    if (event.type === 'progress') {
      yield { type: 'progress', progress: parseJson<Progress>(event.data, status, 'a progress event') };
    } else if (event.type === 'result') {
      yield { type: 'result', result: parseAnswer(event.data, status) };
      return;
    } else if (event.type === 'failed') {
      throw errorFromBody(status, parseJson<unknown>(event.data, status, 'the failed event'), response.headers);
    }
  }
  throw new PuzzledError(status, 'bad_response', 'the event stream ended without a result or a failed event');
}
