// lineBatches and ndjsonValues on hand-made streams: every line ending (LF, CR, CRLF), also cut between
// chunks anywhere (inside a CRLF, inside a multi-byte character), a BOM, a last line without an
// ending, and the reader cancelled when the consumer stops early.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineBatches } from '../src/lines.js';
import { ndjsonValues } from '../src/ndjson.js';
import { PuzzledError } from '../src/errors.js';
import { collect, everySplit, streamOf } from './streams_of.js';

const textLines = async function* (stream: ReadableStream<Uint8Array>) { for await (const lines of lineBatches(stream)) yield* lines; };
const ndjsonOf = (stream: ReadableStream<Uint8Array>) =>
  ndjsonValues(async () => new Response(stream, { headers: { 'Content-Type': 'application/x-ndjson' } }));

test('lines end at LF, CR and CRLF, wherever the chunks are cut', async () => {
  const text = 'a\nbé\r\nc\rd\r\n\r\n€nd';
  for (const pieces of everySplit(text)) {
    assert.deepEqual(await collect(textLines(streamOf(pieces).stream)), ['a', 'bé', 'c', 'd', '', '€nd'], `cut ${pieces.map((p) => p.length)}`);
  }
});

test('a CR at the end of a chunk and a LF starting the next are one line ending', async () => {
  assert.deepEqual(await collect(textLines(streamOf(['x\r', '\ny\r', '', '\n']).stream)), ['x', 'y']);
  assert.deepEqual(await collect(textLines(streamOf(['x\r', 'y']).stream)), ['x', 'y']);
});

test('a leading byte order mark is dropped; an empty stream has no lines', async () => {
  assert.deepEqual(await collect(textLines(streamOf(['\uFEFFa\n']).stream)), ['a']);
  assert.deepEqual(await collect(textLines(streamOf([]).stream)), []);
});

test('stopping early cancels the stream (the service sees the client leave)', async () => {
  const made = streamOf(['1\n2\n', '3\n']);
  for await (const line of textLines(made.stream)) if (line === '1') break;
  assert.equal(made.cancelled(), true);
});

test('NDJSON: one value per line, blank lines skipped, a bad line is a bad_response naming it', async () => {
  assert.deepEqual(await collect(ndjsonOf(streamOf(['[1,2]\n', '\n"x"\n{"a":', 'null}']).stream)), [[1, 2], 'x', { a: null }]);
  await assert.rejects(collect(ndjsonOf(streamOf(['1\n{oops\n']).stream)),
    (error: unknown) => error instanceof PuzzledError && error.code === 'bad_response' && /line 2/.test(error.message));
});

test('NDJSON: an answer of another type is a bad_response; an abort stops within a chunk', async () => {
  const json = new Response('{"kind":"permutations_total","total":"6"}', { headers: { 'Content-Type': 'application/json' } });
  await assert.rejects(collect(ndjsonValues(async () => json)), (error: unknown) => error instanceof PuzzledError && error.code === 'bad_response');
  const controller = new AbortController();
  const made = streamOf(['1\n2\n3\n']);
  const read: unknown[] = [];
  const answer = new Response(made.stream, { headers: { 'Content-Type': 'application/x-ndjson' } });
  await assert.rejects((async () => {
    for await (const value of ndjsonValues(async () => answer, controller.signal)) { read.push(value); controller.abort(); }
  })(), (error: unknown) => error instanceof Error && error.name === 'AbortError');
  assert.deepEqual(read, [1], 'no value after the abort, though the chunk held three');
  assert.equal(made.cancelled(), true, 'the body is cancelled');
});
