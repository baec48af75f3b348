// The package as npm packs it (the tarball test.sh made with `npm pack`, named by
// PUZZLED_CLIENT_TARBALL): what it holds, and a fresh Node 20 project (test/consumers/node/, copied
// to a temporary folder) that installs it with npm, compiles against its types with tsc under NodeNext
// resolution (as Node itself resolves the exports map), and runs against a live puzzled.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startPuzzled, type Puzzled } from './server.js';

const run = promisify(execFile);
const tarball = process.env['PUZZLED_CLIENT_TARBALL'];
if (!tarball) throw new Error('PUZZLED_CLIENT_TARBALL must name the packed package (test.sh packs it)');
const here = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const COMMAND_TIMEOUT_MS = 300_000;

let server: Puzzled;
let project: string;
before(async () => {
  server = await startPuzzled();
  project = mkdtempSync(join(tmpdir(), 'puzzled-client-node-'));
});
after(async () => {
  rmSync(project, { recursive: true, force: true });
  assert.equal(await server.stop(), 0, 'puzzled stops cleanly');
});

test('the tarball holds the built package, its types, the browser bundle, README, CHANGELOG and LICENSE, and no tests', async () => {
  const { stdout } = await run('tar', ['-tzf', tarball]);
  const files = stdout.split('\n').filter((line) => line !== '').sort();
  for (const file of ['package.json', 'LICENSE', 'CHANGELOG.md', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/puzzled-client.js', 'src/index.ts']) {
    assert.ok(files.includes(`package/${file}`), `${file} is packed`);
  }
  assert.deepEqual(files.filter((file) => /^package\/(test|examples|node_modules|\.build)\//.test(file)), [], 'no tests, examples or tools packed');
  const { stdout: license } = await run('tar', ['-xzOf', tarball, 'package/LICENSE']);
  assert.equal(license, readFileSync(here('../../LICENSE'), 'utf8'), 'the packed LICENSE is the repository\'s');
  const { stdout: manifest } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
  const packed = JSON.parse(manifest) as { private?: boolean; exports: Record<string, unknown> };
  assert.equal(packed.private, undefined, 'not private');
  assert.deepEqual(Object.keys(packed.exports), ['.', './browser', './package.json']);
});

test('a fresh Node 20 project installs the tarball, compiles against its types, and runs against the service', async () => {
  cpSync(here('test/consumers/node'), project, { recursive: true });
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: project, timeout: COMMAND_TIMEOUT_MS });
  await run(process.execPath, [here('node_modules/typescript/bin/tsc'), '-p', project], { timeout: COMMAND_TIMEOUT_MS });
  const { stdout } = await run(process.execPath, [join(project, 'dist/main.js')], { env: { ...process.env, PUZZLED_URL: server.url }, timeout: COMMAND_TIMEOUT_MS });
  assert.equal(stdout, [
    'rank 4 of 6, request consumer-0',
    '400 invalid_field on n',
    'bundle: {"status":"ok"}, PuzzledError createClient fromBigInt toBigInt withResponse',
    '',
  ].join('\n'));
});
