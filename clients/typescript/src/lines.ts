// The lines of a byte stream, decoded as UTF-8, read one chunk at a time and handed over as the batch
// of lines each chunk completes (one await per chunk, not per line: a 10!-line stream costs little
// more than its parsing). Memory holds one chunk and the unfinished line, whatever the stream's
// length. Lines end at LF, CR or CRLF (the WHATWG rule for event streams; NDJSON's LF is a case of it,
// and JSON text never holds a raw CR), also when a CRLF is split between two chunks. A leading byte
// order mark is dropped (TextDecoder's default); a last line without an ending is kept. The reader is
// cancelled when the consumer stops early (break, throw, abort), so the service sees the client leave
// and stops generating.

export async function* lineBatches(body: ReadableStream<Uint8Array>): AsyncGenerator<string[], void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let unfinished = '';
  let afterCarriageReturn = false; // the previous chunk ended in CR: a LF starting this one belongs to it
  try {
    for (;;) {
      const { done, value } = await reader.read();
      let text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (afterCarriageReturn && text.length > 0) {
        if (text.startsWith('\n')) text = text.slice(1);
        afterCarriageReturn = false;
      }
      const lines: string[] = [];
      let start = 0;
      // The next CR and LF at or after `start`, each searched again only once passed (linear per chunk).
      let lineFeed = text.indexOf('\n');
      let carriageReturn = text.indexOf('\r');
      for (;;) {
        if (lineFeed !== -1 && lineFeed < start) lineFeed = text.indexOf('\n', start);
        if (carriageReturn !== -1 && carriageReturn < start) carriageReturn = text.indexOf('\r', start);
        const end = lineFeed === -1 ? carriageReturn : carriageReturn === -1 ? lineFeed : Math.min(lineFeed, carriageReturn);
        if (end === -1) break;
        lines.push(unfinished + text.slice(start, end));
        unfinished = '';
        start = end + 1;
        if (end === carriageReturn) {
          if (start === text.length) afterCarriageReturn = true;
          else if (text[start] === '\n') start++;
        }
      }
      unfinished += text.slice(start);
      if (done && unfinished !== '') lines.push(unfinished);
      if (lines.length > 0) yield lines;
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => undefined); // after the end a no-op; before it, closes the connection
  }
}
