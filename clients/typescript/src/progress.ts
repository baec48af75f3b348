// The progress of a long computation (`Accept: text/event-stream`) as an AsyncIterable: `progress`
// events while it runs, then exactly one `result` carrying the same typed answer a plain call gives;
// an `event: error` is thrown as the PuzzledError of its JSON error body. A server that answers with
// plain JSON instead (an endpoint without progress events) gives just the result, so callers need
// not know which endpoints report progress. Unknown event types are skipped for forward
// compatibility; a stream that ends without a result or an error is a `bad_response`.
import { errorFromBody, parseJson, PuzzledError } from './errors.js';
import { EVENT_STREAM, mediaType, readAnswer } from './media.js';
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

/** The events of the 2xx response that `send` resolves with (sent with `Accept: text/event-stream`). */
export async function* progressEvents<T>(send: () => Promise<Response>): AsyncGenerator<ProgressEvent<T>, void, undefined> {
  const response = await send();
  const status = response.status;
  if (mediaType(response) !== EVENT_STREAM || response.body === null) {
    yield { type: 'result', result: await readAnswer(response) as T };
    return;
  }
  for await (const event of serverSentEvents(response.body)) {
    if (event.type === 'progress') {
      yield { type: 'progress', progress: parseJson<Progress>(event.data, status, 'a progress event') };
    } else if (event.type === 'result') {
      yield { type: 'result', result: parseJson<T>(event.data, status, 'the result event') };
      return;
    } else if (event.type === 'error') {
      throw errorFromBody(status, parseJson<unknown>(event.data, status, 'the error event'), response.headers);
    }
  }
  throw new PuzzledError(status, 'bad_response', 'the event stream ended without a result or an error');
}
