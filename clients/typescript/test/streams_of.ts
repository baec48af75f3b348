// Hand-made byte streams for the parser tests: given pieces (strings, UTF-8 encoded, or bytes) become
// the chunks of a ReadableStream exactly as cut, and whether the reader cancelled it is recorded.
export interface MadeStream {
  stream: ReadableStream<Uint8Array>;
  cancelled(): boolean;
}

export function streamOf(pieces: (string | Uint8Array)[]): MadeStream {
  const encoder = new TextEncoder();
  let next = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[next++];
      if (piece === undefined) controller.close();
      else controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
    },
    cancel() { cancelled = true; },
  }, { highWaterMark: 0 });
  return { stream, cancelled: () => cancelled };
}

/** Every way of cutting `text`'s UTF-8 bytes into two chunks (and the whole as one). */
export function everySplit(text: string): Uint8Array[][] {
  const bytes = new TextEncoder().encode(text);
  const cuts: Uint8Array[][] = [[bytes]];
  for (let at = 1; at < bytes.length; at++) cuts.push([bytes.slice(0, at), bytes.slice(at)]);
  return cuts;
}

export async function collect<T>(values: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const value of values) all.push(value);
  return all;
}
