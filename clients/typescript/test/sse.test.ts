// The server-sent events parser (WHATWG HTML, "Parsing an event stream") and the progress events
// built on it, on hand-made streams: the standard's own examples, every cut of a stream into two
// chunks, comments as heartbeats, id and unknown fields, an event cut by the end; then progress
// events ending in the result, a failed event as a PuzzledError, a stream without a result, and a
// plain JSON answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverSentEvents } from '../src/sse.js';
import { progressEvents, type ProgressEvent } from '../src/progress.js';
import { PuzzledError } from '../src/errors.js';
import { ndjsonArray } from '../src/ndjson.js';
import { collect, everySplit, streamOf } from './streams_of.js';

const events = (pieces: (string | Uint8Array)[]) => collect(serverSentEvents(streamOf(pieces).stream));

test('data lines are joined with LF; the type defaults to message (the standard\'s stock example)', async () => {
  assert.deepEqual(await events(['data: YHOO\ndata: +2\ndata: 10\n\n']), [{ type: 'message', data: 'YHOO\n+2\n10', lastEventId: '' }]);
});

test('the standard\'s four-event example: comments, id kept, a lone "data" field, one space stripped', async () => {
  const stream = ': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n';
  assert.deepEqual(await events([stream]), [
    { type: 'message', data: 'first event', lastEventId: '1' },
    { type: 'message', data: 'second event', lastEventId: '' },
  ], 'the third event is cut by the end of the stream and so discarded');
  assert.deepEqual(await events(['data\n\ndata\ndata\n\ndata:\n']), [
    { type: 'message', data: '', lastEventId: '' },
    { type: 'message', data: '\n', lastEventId: '' },
  ]);
  assert.deepEqual(await events(['data:test\n\ndata: test\n\ndata:  test\n\n']).then((all) => all.map((e) => e.data)), ['test', 'test', ' test']);
});

test('the same events whatever the chunks, with CRLF endings and heartbeats between', async () => {
  const text = ':hb\r\nevent: progress\r\ndata: {"done":1}\r\n\r\n: heartbeat\r\n\r\nevent: result\rdata: {"a":\rdata: 2}\r\r';
  for (const pieces of everySplit(text)) {
    assert.deepEqual(await events(pieces), [
      { type: 'progress', data: '{"done":1}', lastEventId: '' },
      { type: 'result', data: '{"a":\n2}', lastEventId: '' },
    ]);
  }
});

test('an event without data, unknown fields, retry and an id holding NUL are not dispatched or kept', async () => {
  assert.deepEqual(await events(['event: lonely\n\nretry: 10\nfoo: bar\nid: a\0b\ndata: x\n\n']), [{ type: 'message', data: 'x', lastEventId: '' }]);
});

function eventStream(text: string, contentType = 'text/event-stream'): Response {
  return new Response(streamOf([text]).stream, { headers: { 'Content-Type': contentType } });
}
const progressOf = (response: Response) => collect(progressEvents<unknown>(async () => response, (text) => JSON.parse(text)));

test('progress events, then the result; the iteration ends there', async () => {
  const text = ': hi\n\nevent: progress\ndata: {"done":0,"total":null,"unit":"nodes","elapsed_ms":0}\n\n' +
    'event: progress\ndata: {"done":5,"total":10,"unit":"nodes","elapsed_ms":12}\n\nevent: result\ndata: {"kind":"queens_count","n":8,"found":true,"total":"92"}\n\n';
  const got: ProgressEvent<unknown>[] = await progressOf(eventStream(text));
  assert.deepEqual(got, [
    { type: 'progress', progress: { done: 0, total: null, unit: 'nodes', elapsed_ms: 0 } },
    { type: 'progress', progress: { done: 5, total: 10, unit: 'nodes', elapsed_ms: 12 } },
    { type: 'result', result: { kind: 'queens_count', n: 8, found: true, total: '92' } },
  ]);
});

test('a failed event is thrown as the PuzzledError of its body, with its field', async () => {
  const text = 'event: progress\ndata: {"done":1,"total":null,"unit":"nodes","elapsed_ms":3}\n\n' +
    'event: failed\ndata: {"error":{"code":"deadline_exceeded","message":"too long","field":"time_limit_ms"}}\n\n';
  await assert.rejects(progressOf(eventStream(text)), (error: unknown) =>
    error instanceof PuzzledError && error.code === 'deadline_exceeded' && error.field === 'time_limit_ms' && error.message === 'too long');
});

test('a stream that ends without a result or a failed event is a bad_response', async () => {
  await assert.rejects(progressOf(eventStream('event: progress\ndata: {}\n\nevent: result\ndata: {}')),
    (error: unknown) => error instanceof PuzzledError && error.code === 'bad_response');
});

test('a plain JSON answer (no progress for that endpoint) is just the result', async () => {
  assert.deepEqual(await progressOf(eventStream('{"n":8}', 'application/json')), [{ type: 'result', result: { n: 8 } }]);
});

test('a result of several data lines (NDJSON) reaches parseAnswer joined with LF, byte for byte', async () => {
  const text = 'event: result\ndata: {"line":1}\ndata: {"line":2}\n\n';
  assert.deepEqual(await collect(progressEvents(async () => eventStream(text), (answer) => answer)), [{ type: 'result', result: '{"line":1}\n{"line":2}' }]);
  assert.deepEqual(ndjsonArray('{"line":1}\r\n\n{"line":2}', 200), [{ line: 1 }, { line: 2 }]);
});
