// Server-sent events parsed per the WHATWG HTML standard ("Parsing an event stream") from the lines
// of a byte stream (lineBatches, which splits at CR, LF and CRLF and drops a leading BOM). fetch's
// ReadableStream is used rather than EventSource, which can neither POST nor send headers. Fields:
// `event` (the type, default "message"), `data` (lines joined with LF), `id` (kept across events,
// ignored when it holds NUL); `retry` and unknown fields are ignored (the client never reconnects);
// lines starting with ':' are comments (heartbeats). An event is dispatched at a blank line, and only
// if it had data; an event cut by the end of the stream is discarded.
import { lineBatches } from './lines.js';

export interface ServerSentEvent {
  /** The `event` field, "message" when absent. */
  type: string;
  data: string;
  /** The last event id seen so far in the stream ("" when none). */
  lastEventId: string;
}

export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent, void, undefined> {
  let type = '';
  let data = '';
  let lastEventId = '';
  for await (const lines of lineBatches(body)) {
    for (const line of lines) {
      if (line === '') {
        if (data !== '') yield { type: type === '' ? 'message' : type, data: data.slice(0, -1), lastEventId };
        type = '';
        data = '';
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') type = value;
      else if (field === 'data') data += `${value}\n`;
      else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    }
  }
}
