// The opt-in retry and the error mapping, on a stub fetch that answers from a script: 503 overloaded
// and 429 are sent again after their Retry-After while attempts remain; nothing is retried unless
// asked; other errors never; a Retry-After over the caller's maximum fails at once; an abort during
// the wait ends it. The BigInt helpers at the end.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createClient, fromBigInt, PuzzledError, toBigInt, type RetryOptions } from '../src/index.js';

interface Scripted { status: number; code?: string; retryAfter?: string }

// A client whose fetch answers the scripted statuses in turn (then 200 {"status":"ok"}), counting calls.
function scriptedClient(script: Scripted[], retry?: RetryOptions) {
  let calls = 0;
  const fetchStub: typeof fetch = async () => {
    const answer = script[calls++];
    if (answer === undefined) return Response.json({ status: 'ok' });
    const headers: Record<string, string> = { 'X-Request-Id': `id-${calls}` };
    if (answer.retryAfter !== undefined) headers['Retry-After'] = answer.retryAfter;
    return Response.json({ error: { code: answer.code, message: `scripted ${answer.status}`, field: 'n' } }, { status: answer.status, headers });
  };
  const client = createClient({ baseUrl: 'http://puzzled.invalid', fetch: fetchStub, ...(retry ? { retry } : {}) });
  return { client, calls: () => calls };
}

const overloaded = { status: 503, code: 'overloaded', retryAfter: '0' };
const rateLimited = { status: 429, code: 'rate_limited', retryAfter: '0' };

test('without retry, a 503 overloaded is thrown at once with its Retry-After and request id', async () => {
  const { client, calls } = scriptedClient([{ ...overloaded, retryAfter: '7' }]);
  await assert.rejects(client.get('/healthz'), (error: unknown) =>
    error instanceof PuzzledError && error.status === 503 && error.code === 'overloaded' && error.retryAfter === 7 && error.requestId === 'id-1' && error.field === 'n');
  assert.equal(calls(), 1);
});

test('with retry, 503 overloaded and 429 are sent again until success', async () => {
  const { client, calls } = scriptedClient([overloaded, rateLimited, overloaded], { attempts: 4 });
  assert.deepEqual(await client.get('/healthz'), { status: 'ok' });
  assert.equal(calls(), 4);
});

test('the attempts are a bound: the last error is thrown', async () => {
  const { client, calls } = scriptedClient([overloaded, overloaded, overloaded], { attempts: 2 });
  await assert.rejects(client.get('/healthz'), (error: unknown) => error instanceof PuzzledError && error.code === 'overloaded');
  assert.equal(calls(), 2);
});

test('other errors are never retried; a call may turn the retry off', async () => {
  for (const script of [{ status: 503, code: 'not_ready', retryAfter: '0' }, { status: 400, code: 'invalid_field' }]) {
    const { client, calls } = scriptedClient([script], { attempts: 3 });
    await assert.rejects(client.get('/healthz'), (error: unknown) => error instanceof PuzzledError && error.code === script.code);
    assert.equal(calls(), 1);
  }
  const { client, calls } = scriptedClient([overloaded], { attempts: 3 });
  await assert.rejects(client.get('/healthz', undefined, { retry: false }));
  assert.equal(calls(), 1);
});

test('a Retry-After over maxDelayMs fails at once instead of trying early', async () => {
  const { client, calls } = scriptedClient([{ ...overloaded, retryAfter: '60' }], { attempts: 3, maxDelayMs: 1000 });
  await assert.rejects(client.get('/healthz'), (error: unknown) => error instanceof PuzzledError && error.retryAfter === 60);
  assert.equal(calls(), 1);
});

test('an abort during the wait before a retry ends the call with the abort', async () => {
  const { client, calls } = scriptedClient([{ ...overloaded, retryAfter: '30' }], { attempts: 2, maxDelayMs: 60_000 });
  const controller = new AbortController();
  const call = client.get('/healthz', undefined, { signal: controller.signal });
  while (calls() === 0) await new Promise((resolve) => setImmediate(resolve));
  controller.abort();
  await assert.rejects(call, (error: unknown) => error instanceof Error && error.name === 'AbortError');
  assert.equal(calls(), 1);
});

test('an answer that is not the error body is a bad_response with its status', async () => {
  const client = createClient({ baseUrl: 'http://puzzled.invalid', fetch: async () => new Response('<html>bad gateway</html>', { status: 502 }) });
  await assert.rejects(client.get('/healthz'), (error: unknown) => error instanceof PuzzledError && error.status === 502 && error.code === 'bad_response');
});

test('BigInt helpers: exact both ways past 2^53, and only decimal digits', () => {
  const factorial25 = Array.from({ length: 25 }, (_, i) => BigInt(i + 1)).reduce((a, b) => a * b);
  assert.equal(fromBigInt(factorial25), '15511210043330985984000000');
  assert.equal(toBigInt('15511210043330985984000000'), factorial25);
  assert.equal(toBigInt(fromBigInt(2n ** 64n - 1n)), 2n ** 64n - 1n);
  for (const bad of ['', '-1', '1e3', ' 1', '0x10']) assert.throws(() => toBigInt(bad), RangeError);
  assert.throws(() => fromBigInt(-1n), RangeError);
});
