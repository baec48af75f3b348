// The examples of the README, compiled from examples/ against the built package (they import
// 'puzzled-client' as a user's code does), run against a live puzzled: each exits 0 and prints what
// it promises.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startPuzzled, type Puzzled } from './server.js';

let server: Puzzled;
before(async () => { server = await startPuzzled(); });
after(async () => assert.equal(await server.stop(), 0, 'puzzled stops cleanly'));

async function runExample(name: string): Promise<string> {
  const file = new URL(`../examples/${name}.js`, import.meta.url);
  const { stdout } = await promisify(execFile)(process.execPath, [file.pathname], { env: { ...process.env, PUZZLED_URL: server.url }, timeout: 60_000 });
  return stdout;
}

test('quick_start: a rank with big integers, and the 92 queens', async () => {
  assert.match(await runExample('quick_start'), /^rank \d+ of 34650; \d+ come after it\n8 queens: 92 solutions\n$/);
});

test('stream: the first three arrangements of "puzzled" (its letters sorted, then the last ones turned), then 1000 read and the loop left', async () => {
  assert.match(await runExample('stream'), /^delpuzz\ndelpzuz\ndelpzzu\nread 1000 arrangements\n$/);
});

test('errors_and_cancel: the field of an error, and a stream cancelled by a signal', async () => {
  assert.match(await runExample('errors_and_cancel'), /^400 invalid_field on field n: .+\ncancelled after \d+ boards\n$/);
});
