// Streams and errors against a live puzzled: all 10! arrangements of ten letters read as NDJSON to the
// end with flat client memory (live heap and buffers measured after a forced full collection, so
// only what the client keeps counts, not garbage awaiting collection); an abort mid-stream that the
// server sees (its in-flight request ends and streams_aborted_total counts it on /metrics); errors as
// PuzzledError with their field, for calls and streams alike; bulk /sudoku/solve as a text stream;
// progress() against an endpoint.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { parse } from 'yaml';
import { runInNewContext } from 'node:vm';
import { createClient, PuzzledError, type PuzzledClient } from '../src/index.js';
import { metric, startPuzzled, type Puzzled } from './server.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
// Live client memory: V8's heap and the ArrayBuffers (fetch's chunks) after a full collection.
function liveBytes(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

// The next arrangement in lexicographic order (the textbook next-permutation), or null after the last.
function nextPermutation(word: string): string | null {
  const letters = [...word];
  let i = letters.length - 2;
  while (i >= 0 && letters[i]! >= letters[i + 1]!) i--;
  if (i < 0) return null;
  let j = letters.length - 1;
  while (letters[j]! <= letters[i]!) j--;
  [letters[i], letters[j]] = [letters[j]!, letters[i]!];
  return letters.slice(0, i + 1).concat(letters.slice(i + 1).reverse()).join('');
}

let server: Puzzled;
let client: PuzzledClient;
before(async () => {
  server = await startPuzzled();
  client = createClient({ baseUrl: server.url });
});
after(async () => assert.equal(await server.stop(), 0, 'puzzled stops cleanly'));

// The client keeps one chunk and its lines, fetch its queue of chunks, V8 the code it compiled: a few
// MiB (at most 4.0 to 4.6 measured) whatever the length. Keeping 16 bytes a line would be 55 MiB.
const FLAT_MEMORY_BOUND_BYTES = 8 * 1024 * 1024;
const SAMPLE_EVERY_LINES = 1 << 18;

test('10! NDJSON lines read to the end, each the successor of the last, with flat memory', async () => {
  const baseline = liveBytes();
  let lines = 0;
  let bytes = 0;
  let expected: string | null = '0123456789';
  let largestGrowth = 0;
  for await (const line of client.stream('/permutations', { text: '0123456789' })) {
    if (line !== expected) assert.fail(`line ${lines + 1}: ${line}, expected ${expected}`);
    expected = nextPermutation(line as string);
    lines++;
    bytes += (line as string).length + 3; // the quotes and the line feed
    if (lines % SAMPLE_EVERY_LINES === 0) largestGrowth = Math.max(largestGrowth, liveBytes() - baseline);
  }
  assert.equal(lines, 3_628_800, '10! lines');
  assert.equal(expected, null, 'the last line is the last arrangement');
  console.log(`read ${lines} lines (${(bytes / 2 ** 20).toFixed(1)} MiB); live memory grew by at most ${(largestGrowth / 2 ** 20).toFixed(2)} MiB`);
  assert.ok(largestGrowth < FLAT_MEMORY_BOUND_BYTES, `live memory grew by ${largestGrowth} bytes while streaming ${bytes}`);
  assert.ok(bytes > 5 * FLAT_MEMORY_BOUND_BYTES, 'the stream is far larger than the bound');
});

test('an abort mid-stream ends the request on the server: the worker is freed and the stream counted as aborted', async () => {
  const metrics = async () => (await client.get('/metrics')) as string;
  const before = await metrics();
  const controller = new AbortController();
  let read = 0;
  let during = '';
  await assert.rejects((async () => {
    for await (const line of client.stream('/permutations', { text: 'abcdefghijklmnopqrst' }, { signal: controller.signal })) {
      assert.equal(typeof line, 'string');
      if (++read === 1000) {
        during = await metrics();
        controller.abort();
      }
    }
  })(), (error: unknown) => error instanceof Error && error.name === 'AbortError');
  assert.equal(read, 1000, 'no line after the abort');
  assert.equal(metric(during, 'puzzled_requests_in_flight'), metric(before, 'puzzled_requests_in_flight') + 1, 'the stream was in flight');
  // The server learns of the abort when its next write fails, and frees the worker once the chunk it
  // was producing is done: wait for both events (bounded), not for a time.
  const settled = (text: string) => metric(text, 'puzzled_streams_aborted_total') > metric(before, 'puzzled_streams_aborted_total') &&
    metric(text, 'puzzled_requests_in_flight') === metric(before, 'puzzled_requests_in_flight') && metric(text, 'puzzled_workers_busy') === 0;
  let now = await metrics();
  for (let polls = 0; polls < 200 && !settled(now); polls++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    now = await metrics();
  }
  assert.equal(metric(now, 'puzzled_streams_aborted_total'), metric(before, 'puzzled_streams_aborted_total') + 1, 'the stream counted as aborted');
  assert.equal(metric(now, 'puzzled_requests_in_flight'), metric(before, 'puzzled_requests_in_flight'), 'no request left in flight');
  assert.equal(metric(now, 'puzzled_workers_busy'), 0, 'no worker busy');
});

const isError = (status: number, code: string, field: string | undefined) => (error: unknown) =>
  error instanceof PuzzledError && error.status === status && error.code === code && error.field === field && error.message.length > 0;

test('errors become PuzzledError with the field to blame, for calls and streams', async () => {
  await assert.rejects(client.get('/queens', { n: 0 }), isError(400, 'invalid_field', 'n'));
  await assert.rejects(client.post('/queens', { n: 100, mode: 'count' }), isError(422, 'too_large', 'n'));
  await assert.rejects(client.post('/permutation/rank', { permutation: [1], bogus: true } as never), isError(400, 'unknown_field', 'bogus'));
  await assert.rejects((async () => {
    for await (const line of client.stream('/permutations', { items: [1, 2], text: 'ab' })) assert.fail(`a line: ${JSON.stringify(line)}`);
  })(), (error: unknown) => error instanceof PuzzledError && error.code === 'conflicting_fields' && error.status === 400);
});

test('bulk /sudoku/solve: a text/plain body streamed back one typed line per puzzle', async () => {
  const lines = [];
  for await (const line of client.stream('/sudoku/solve', '.....4.1....3.2.\n1..1............\n')) lines.push(line);
  assert.equal(lines.length, 2);
  assert.ok('solution' in lines[0]! && lines[0].solution === '1342243142133124' || assert.fail(JSON.stringify(lines[0])));
  assert.ok('error' in lines[1]! && lines[1].error.code === 'conflicting_givens', JSON.stringify(lines[1]));
});

test('progress() ends in the typed answer (only the result where the endpoint sends no progress events)', async () => {
  const events = [];
  for await (const event of client.progress('/queens', { n: 8, mode: 'count' })) events.push(event);
  const last = events.at(-1);
  assert.ok(last?.type === 'result' && typeof last.result !== 'string' && last.result.kind === 'queens_count');
  assert.equal(last.result.total, '92');
  assert.ok(events.slice(0, -1).every((event) => event.type === 'progress'));
});

test('progress() of bulk /sudoku/solve (a text body) ends in its NDJSON lines as an array', async () => {
  const events = [];
  for await (const event of client.progress('/sudoku/solve', '.....4.1....3.2.\n1..1............\n')) events.push(event);
  const last = events.at(-1);
  assert.ok(last?.type === 'result');
  assert.deepEqual(last.result.map((line) => [line.line, 'solution' in line ? line.solution : line.error?.code]), [[1, '1342243142133124'], [2, 'conflicting_givens']]);
});

// Where openapi.yaml gives /queens an event stream, a count must show its course: the service sends a
// progress event at each eighth of the work whose total it knows (ProgressEventStream), so events
// arrive however fast the count runs.
const spec = parse(readFileSync(new URL('../../../../openapi.yaml', import.meta.url), 'utf8'));
const queensContent = spec.paths['/queens'].post.responses['200'];
const queensHasProgress = JSON.stringify(queensContent).includes('text/event-stream') ||
  JSON.stringify(spec.paths['/queens'].get.responses['200']).includes('text/event-stream');
test('progress() of a /queens count: events with a known total, never going back, then the count', { skip: !queensHasProgress && 'openapi.yaml gives /queens no text/event-stream yet' }, async () => {
  const events = [];
  for await (const event of client.progress('/queens', { n: 12, mode: 'count' })) events.push(event);
  const progress = events.flatMap((event) => event.type === 'progress' ? [event.progress] : []);
  assert.ok(progress.length >= 1, 'at least one progress event');
  progress.forEach((p, i) => {
    assert.equal(p.unit, 'subproblems');
    assert.ok(p.total !== null && p.done <= p.total, JSON.stringify(p));
    if (i > 0) assert.ok(p.done >= progress[i - 1]!.done && p.elapsed_ms >= progress[i - 1]!.elapsed_ms, 'never going back');
  });
  const last = events.at(-1);
  assert.ok(last?.type === 'result' && typeof last.result !== 'string' && last.result.kind === 'queens_count');
  assert.equal(last.result.total, '14200', 'solutions of 12 queens (OEIS A000170)');
});
