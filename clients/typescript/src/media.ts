// The media types the client asks for and reads, and how a success is read: JSON parsed, any other
// type (SVG, HTML, YAML, CSS, JavaScript, metrics text) as its text; a body that broke off before its
// end (a list cut by its time limit) is a PuzzledError `stream_cut`.
import { parseJson, streamCut } from './errors.js';

export const JSON_TYPE = 'application/json';
export const NDJSON = 'application/x-ndjson';
export const EVENT_STREAM = 'text/event-stream';
/** What `progress` asks for: the events where the path reports progress, else its plain answer (JSON,
 * NDJSON, SVG), which an Accept of the events alone would have answered 406 `not_acceptable`. */
export const EVENTS_OR_ANY = `${EVENT_STREAM}, */*;q=0.1`;

/** The media type of a response, lowercase, without parameters ("" when it has none). */
export function mediaType(response: Response): string {
  return (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A 2xx answer: parsed JSON when it is JSON, else its text. */
export async function readAnswer(response: Response, signal?: AbortSignal): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    throw streamCut(response.status, cause, signal);
  }
  return mediaType(response) === JSON_TYPE ? parseJson(text, response.status, 'the answer') : text;
}
