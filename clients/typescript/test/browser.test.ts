// The client's esbuild bundle (dist/puzzled-client.js, built by test.sh) in Debian's chromium, driven
// by playwright-core: a page on another origin (a static server started here) loads it as a module
// and makes one JSON call (a rank past 2^53, exact through BigInt), reads one NDJSON stream (every
// arrangement of five letters, checked against a brute force) and turns one error into a
// PuzzledError with its field. The page's CSP lets it reach only itself and the service, so the
// bundle needs nothing else (no polyfill, no CDN).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { startPuzzled, type Puzzled } from './server.js';

const FILES: Record<string, { type: string; body: Buffer }> = {
  '/': { type: 'text/html; charset=utf-8', body: readFileSync(new URL('../../test/browser/index.html', import.meta.url)) },
  '/page.js': { type: 'text/javascript', body: readFileSync(new URL('../../test/browser/page.js', import.meta.url)) },
  '/puzzled-client.js': { type: 'text/javascript', body: readFileSync(new URL('../../dist/puzzled-client.js', import.meta.url)) },
};

let puzzled: Puzzled;
let pages: Server;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  puzzled = await startPuzzled();
  pages = createServer((request, response) => {
    const file = FILES[request.url ?? ''];
    if (file === undefined) { response.writeHead(404).end(); return; }
    const csp = `default-src 'none'; script-src 'self'; connect-src ${puzzled.url}`;
    response.writeHead(200, { 'Content-Type': file.type, 'Content-Security-Policy': csp }).end(file.body);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (message) => { if (message.type() === 'error') pageErrors.push(message.text()); });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/`);
  await page.waitForSelector('body[data-ready=true]', { state: 'attached' });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => pages?.close(resolve));
  assert.equal(await puzzled.stop(), 0, 'puzzled stops cleanly');
  // Chromium logs each non-2xx fetch as a console error: the error test's 400 is the only one allowed.
  assert.deepEqual(pageErrors, ['Failed to load resource: the server responded with a status of 400 (Bad Request)'], 'no other error in the page');
});

// What the page's window holds: the bundle's exports.
type Bundle = typeof import('../src/index.js');
declare const window: { puzzled: Bundle };

test('one JSON call: the rank of 25 items reversed is 25! - 1, exact through BigInt', async () => {
  const answer = await page.evaluate(async (service) => {
    const client = window.puzzled.createClient({ baseUrl: service });
    const items = Array.from({ length: 25 }, (_, i) => 25 - i);
    const { rank, total } = await client.post('/permutation/rank', { permutation: items });
    return { rank: String(window.puzzled.toBigInt(rank) + 1n), total };
  }, puzzled.url);
  const factorial25 = Array.from({ length: 25 }, (_, i) => BigInt(i + 1)).reduce((a, b) => a * b);
  assert.deepEqual(answer, { rank: String(factorial25), total: String(factorial25) });
});

test('one stream: every arrangement of five letters, in order, read line by line', async () => {
  const lines = await page.evaluate(async (service) => {
    const client = window.puzzled.createClient({ baseUrl: service });
    const read: unknown[] = [];
    for await (const line of client.stream('/permutations', { text: 'abcde' })) read.push(line);
    return read;
  }, puzzled.url);
  const arrangements = (letters: string): string[] => letters.length <= 1 ? [letters]
    : [...letters].flatMap((letter, i) => arrangements(letters.slice(0, i) + letters.slice(i + 1)).map((rest) => letter + rest));
  assert.deepEqual(lines, arrangements('abcde'));
});

test('one error: a PuzzledError with its status, code and field', async () => {
  const error = await page.evaluate(async (service) => {
    const client = window.puzzled.createClient({ baseUrl: service });
    try {
      await client.get('/queens', { n: 0 });
      return null;
    } catch (caught) {
      if (!(caught instanceof window.puzzled.PuzzledError)) return String(caught);
      return { name: caught.name, status: caught.status, code: caught.code, field: caught.field };
    }
  }, puzzled.url);
  assert.deepEqual(error, { name: 'PuzzledError', status: 400, code: 'invalid_field', field: 'n' });
});
