// The contract's types and ends against a live puzzled: every error code the server can send compiles
// as a PuzzledError['code'] (the list below must type-check, and must equal api/errors.h's table at run
// time, so a code added on either side fails here), errors carry their machine-readable details, an
// NDJSON stream stopped by its time limit is thrown as the PuzzledError its last line describes, and a
// body whose transfer broke off is a PuzzledError `stream_cut`, never a bare TypeError.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { createClient, PuzzledError, type PuzzledClient } from '../src/index.js';
import { startPuzzled, type Puzzled } from './server.js';

// Every code of api/errors.h, written out: `satisfies` makes each one a compile error unless it is a
// PuzzledError['code'].
const SERVER_CODES = [
  'malformed_json',
  'invalid_body',
  'unknown_field',
  'duplicate_field',
  'invalid_field',
  'missing_field',
  'conflicting_fields',
  'invalid_request',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'uri_too_long',
  'too_large',
  'length_mismatch',
  'unknown_word',
  'rate_limited',
  'heuristic_failed',
  'conflicting_givens',
  'no_solution',
  'internal_error',
  'out_of_memory',
  'unsupported_transfer_coding',
  'deadline_exceeded',
  'no_dictionary',
  'overloaded',
  'not_ready',
] as const satisfies readonly PuzzledError['code'][];

const TABLE = readFileSync(new URL('../../../../api/errors.h', import.meta.url), 'utf8');

let puzzled: Puzzled;
let client: PuzzledClient;
before(async () => {
  puzzled = await startPuzzled();
  client = createClient({ baseUrl: puzzled.url });
});
after(async () => {
  assert.equal(await puzzled.stop(), 0);
});

test('every error code of api/errors.h compiles as a PuzzledError code, and no other', () => {
  const table = [...TABLE.matchAll(/X\(API_\w+,\s*\d{3},\s*"([a-z_]+)"/g)].map((m) => m[1]);
  assert.ok(table.length > 20, 'the table of api/errors.h was not read');
  assert.deepEqual([...SERVER_CODES].sort(), [...table].sort());
});

test('a word-ladder page tells an unknown word by its code and reads the word from the details', async () => {
  await assert.rejects(client.post('/word-ladder', { from: 'cold', to: 'qzqz' }), (error: unknown) => {
    assert.ok(error instanceof PuzzledError);
    if (error.code !== 'unknown_word') return false; // compiles: unknown_word is one of the codes
    assert.deepEqual(error.details, { word: 'qzqz', letters: 4 });
    return true;
  });
});

test('a range error carries its range as details', async () => {
  await assert.rejects(client.post('/queens', { n: 33 }), (error: unknown) =>
    error instanceof PuzzledError && error.code === 'too_large' &&
    JSON.stringify(error.details) === JSON.stringify({ min: 1, max: 32, received: 33 }));
});

test('an NDJSON stream stopped by its time limit is thrown as a PuzzledError deadline_exceeded', async () => {
  // all solutions of 20 queens (39,029,188,884) cannot end; the pause at the first line outlasts the
  // 2 s time limit, and the server generates only as the socket takes more
  let lines = 0;
  await assert.rejects((async () => {
    for await (const solution of client.stream('/queens', { n: 20, time_limit_ms: 2000 })) {
      assert.equal(solution.length, 20);
      if (lines++ === 0) await sleep(3000);
    }
  })(), (error: unknown) => error instanceof PuzzledError && error.code === 'deadline_exceeded' && error.status === 200);
  assert.ok(lines > 0);
});

// A 200 whose body gives `text`, then fails as fetch's body does when the transfer breaks off.
function cutResponse(text: string, type: string): Response {
  let pulls = 0;
  return new Response(new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulls++ === 0) controller.enqueue(new TextEncoder().encode(text));
      else controller.error(new TypeError('terminated'));
    },
  }), { status: 200, headers: { 'Content-Type': type } });
}

test('a JSON body that broke off is a PuzzledError stream_cut', async () => {
  // a transfer cut as the service cuts a JSON list: some bytes, then the body errors as fetch's does
  const cutFetch: typeof fetch = async () => cutResponse('{"n":20,"solutions":[[0,2', 'application/json');
  const cut = createClient({ baseUrl: 'http://cut.invalid', fetch: cutFetch });
  await assert.rejects(cut.post('/queens', { n: 20 }), (error: unknown) =>
    error instanceof PuzzledError && error.code === 'stream_cut' && error.status === 200);
  const cutLines: typeof fetch = async () => cutResponse('[0,1,2]\n[0,2', 'application/x-ndjson');
  const lines: unknown[] = [];
  await assert.rejects((async () => {
    for await (const line of createClient({ baseUrl: 'http://cut.invalid', fetch: cutLines }).stream('/permutations', { items: [0, 1, 2] })) lines.push(line);
  })(), (error: unknown) => error instanceof PuzzledError && error.code === 'stream_cut');
  assert.deepEqual(lines, [[0, 1, 2]]);
});
