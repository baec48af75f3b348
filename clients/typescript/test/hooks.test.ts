// Hooks and withResponse against a live puzzled: onRequest sets a header the service then echoes
// (X-Request-Id), hooks run in order and see every response, errors included; onResponse may put
// another Response in place of the service's; a retried call runs the hooks at each attempt (on a
// stub fetch that answers 503 then 200); withResponse gives the answer a plain call gives together
// with the response's ETag and X-Request-Id, and refuses a promise that is not a call's.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createClient, PuzzledError, withResponse, type Hooks } from '../src/index.js';
import { startPuzzled, type Puzzled } from './server.js';

let server: Puzzled;
before(async () => { server = await startPuzzled(); });
after(async () => assert.equal(await server.stop(), 0, 'puzzled stops cleanly'));

test('onRequest sets a header the service sees; the hooks run in order and see each response, a 400 too', async () => {
  const seen: string[] = [];
  const hooks: Hooks[] = [
    { onRequest(request) { request.headers.set('X-Request-Id', `hooked-${seen.length}`); } },
    {
      onRequest(request) { seen.push(`request ${request.method} ${new URL(request.url).pathname} ${request.headers.get('X-Request-Id')}`); },
      onResponse(response, request) { seen.push(`response ${response.status} ${response.headers.get('X-Request-Id')} to ${request.headers.get('X-Request-Id')}`); },
    },
  ];
  const client = createClient({ baseUrl: server.url, hooks });
  assert.deepEqual(await client.get('/healthz'), { status: 'ok' });
  await assert.rejects(client.get('/queens', { n: 0 }), (error: unknown) =>
    error instanceof PuzzledError && error.status === 400 && error.requestId === 'hooked-2');
  assert.deepEqual(seen, [
    'request GET /healthz hooked-0',
    'response 200 hooked-0 to hooked-0',
    'request GET /queens hooked-2',
    'response 400 hooked-2 to hooked-2',
  ]);
});

test('onResponse may answer in the service\'s place', async () => {
  const client = createClient({
    baseUrl: server.url,
    hooks: [{ onResponse: () => Response.json({ status: 'from the hook' }) }],
  });
  assert.deepEqual(await client.get('/healthz'), { status: 'from the hook' });
});

test('a retried call runs the hooks at each attempt', async () => {
  const statuses = [503, 200];
  const attempts: string[] = [];
  const client = createClient({
    baseUrl: 'http://puzzled.invalid',
    retry: { attempts: 2 },
    fetch: async () => {
      const status = statuses.shift()!;
      return status === 200 ? Response.json({ status: 'ok' })
        : Response.json({ error: { code: 'overloaded', message: 'busy' } }, { status, headers: { 'Retry-After': '0' } });
    },
    hooks: [{
      onRequest(request) { attempts.push(`sent ${request.url}`); },
      onResponse(response) { attempts.push(`got ${response.status}`); },
    }],
  });
  assert.deepEqual(await client.get('/healthz'), { status: 'ok' });
  assert.deepEqual(attempts, ['sent http://puzzled.invalid/healthz', 'got 503', 'sent http://puzzled.invalid/healthz', 'got 200']);
});

test('withResponse: the answer a plain call gives, with its ETag and X-Request-Id', async () => {
  const client = createClient({ baseUrl: server.url });
  const query = { seed: '42', difficulty: 'easy' } as const;
  const { data, response } = await withResponse(client.get('/sudoku/generate', query));
  assert.deepEqual(data, await client.get('/sudoku/generate', query));
  assert.equal(response.status, 200);
  assert.match(response.headers.get('ETag') ?? '', /^"[^"]+"$/, 'a strong ETag');
  assert.match(response.headers.get('X-Request-Id') ?? '', /^\S+$/);
  const rank = await withResponse(client.post('/permutation/rank', { permutation: [3, 1, 2] }, { headers: { 'X-Request-Id': 'rank-1' } }));
  assert.deepEqual(rank.data, { kind: 'rank', rank: '4', total: '6' });
  assert.equal(rank.response.headers.get('X-Request-Id'), 'rank-1');
});

test('withResponse passes a call\'s error on, and refuses a promise that is not a call\'s', async () => {
  const client = createClient({ baseUrl: server.url });
  await assert.rejects(withResponse(client.get('/queens', { n: 0 })), (error: unknown) => error instanceof PuzzledError && error.field === 'n');
  await assert.rejects(withResponse(Promise.resolve(1)), TypeError);
});
