// The package as npm packs it (the tarball test.sh made with `npm pack`, named by
// PUZZLED_CLIENT_TARBALL): what it holds; a fresh Node 20 project (test/consumers/node/, copied
// to a temporary folder) that installs it with npm, compiles against its types with tsc under NodeNext
// resolution (as Node itself resolves the exports map), and runs against a live puzzled; and a fresh
// Vite project (test/consumers/vite/, laid out as `npm create vite` lays out a vanilla TypeScript
// one, its Vite pinned by its own lockfile, the tarball installed by test.sh) type-checked under
// Bundler resolution, built with vite build, and its page loaded in Debian's chromium, where it calls
// the live puzzled through the client.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchChromium, serveFolder } from './chromium.js';
import { startPuzzled, type Puzzled } from './server.js';

const run = promisify(execFile);
const tarball = process.env['PUZZLED_CLIENT_TARBALL'];
if (!tarball) throw new Error('PUZZLED_CLIENT_TARBALL must name the packed package (test.sh packs it)');
const here = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const COMMAND_TIMEOUT_MS = 300_000;
const PAGE_TIMEOUT_MS = 60_000;

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
  const packed = JSON.parse(manifest) as { private?: boolean; exports: Record<string, unknown>; scripts?: unknown; devDependencies?: unknown };
  assert.equal(packed.private, undefined, 'not private');
  assert.equal(packed.scripts, undefined, 'no scripts, whose files and tools the tarball does not hold');
  assert.equal(packed.devDependencies, undefined, 'no devDependencies');
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

// The README's two set-up lines, run as written in a fresh `npm init -y` project, but for the
// package's path (the tarball instead) and TypeScript (this folder's pinned one, not the registry's).
test('the README\'s set-up makes a fresh npm init -y project run its example, and npm warns of nothing', async () => {
  const readme = readFileSync(here('README.md'), 'utf8');
  const block = (heading: string, language: string) => {
    const section = readme.slice(readme.indexOf(`## ${heading}\n`));
    const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section);
    assert.ok(match?.[1], `the README's ${heading} has a ${language} block`);
    return match[1];
  };
  const fresh = mkdtempSync(join(tmpdir(), 'puzzled-client-readme-'));
  try {
    await run('npm', ['init', '-y'], { cwd: fresh });
    const setup = block('Install', 'sh').trim().split('\n');
    assert.equal(setup.length, 2, 'two lines');
    const commands = setup.map((line) => line
      .replace('../puzzled/clients/typescript', tarball)
      .replace(/ typescript$/, ` ${here('node_modules/typescript')}`));
    for (const command of commands) {
      const { stderr } = await run('sh', ['-c', command], { cwd: fresh, timeout: COMMAND_TIMEOUT_MS });
      assert.doesNotMatch(stderr, /warn/i, `${command} warns of nothing`);
    }
    writeFileSync(join(fresh, 'main.ts'), block('Example', 'ts').replace('http://localhost:8080', server.url));
    await run('sh', ['-c', 'npx tsc'], { cwd: fresh, timeout: COMMAND_TIMEOUT_MS });
    const { stdout } = await run(process.execPath, [join(fresh, 'main.js')], { timeout: COMMAND_TIMEOUT_MS });
    assert.equal(stdout, 'rank 13736 of 34650; 20913 come after it\n8 queens: 92 solutions\n');
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});

test('a fresh Vite project with the tarball installed type-checks, builds, and its page calls the service in Chromium', async () => {
  const vite = here('test/consumers/vite');
  const site = join(project, 'vite-dist');
  await run(process.execPath, [here('node_modules/typescript/bin/tsc'), '-p', vite], { timeout: COMMAND_TIMEOUT_MS });
  await run(process.execPath, [join(vite, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', site, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: vite, env: { ...process.env, VITE_PUZZLED_URL: server.url }, timeout: COMMAND_TIMEOUT_MS });
  const pages = await serveFolder(site);
  const browser = await launchChromium();
  const pageErrors: string[] = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(pages.url);
    await page.waitForSelector('body[data-done=true]', { state: 'attached', timeout: PAGE_TIMEOUT_MS });
    const lastRank = Array.from({ length: 16 }, (_, i) => BigInt(i + 1)).reduce((product, k) => product * k) - 1n; // 16! - 1
    assert.equal(await page.textContent('#answers'), [
      'rank 4 of 6, request vite-consumer',
      `progress then result: rank ${lastRank}`,
      '400 invalid_field on n',
    ].join('\n'));
  } finally {
    await browser.close();
    await pages.close();
  }
  assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
});
