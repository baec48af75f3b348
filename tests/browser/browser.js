'use strict';
// The browser test (run by tests/browser/run.sh): Debian's chromium, driven by playwright-core, goes
// through the playground at /, the API reference at /docs and a page on another origin, against a
// puzzled started here on a free port. What is drawn is checked against independent facts (queens
// that do not attack each other, knight moves, one letter changed per rung, OEIS counts, BigInt
// factorials); any console error or CSP violation fails the test that caused it. Screenshots of
// every test go to the artifacts folder. One test goes through docker/nginx.conf in front of puzzled.
//   node browser.js PUZZLED_BIN ARTIFACTS_DIR [BASE_URL]   (BASE_URL: test that server instead, e.g. nginx)
// BROWSER_TESTS=regex runs only the tests whose name matches.
const {spawn, execFileSync} = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const {chromium} = require('playwright-core');

const [bin, artifacts, givenBase] = process.argv.slice(2);
const CHROMIUM = process.env.PUZZLED_CHROMIUM ?? '/usr/bin/chromium';
const children = [];

// Starts a process and resolves with the first match of `pattern` in its stdout; what it writes on
// stderr is kept in stderrOf.get(match).
const stderrOf = new Map();
function startAndRead(command, args, pattern, what) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {stdio: ['ignore', 'pipe', 'pipe']});
    children.push(child);
    let out = '', err = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 15 s: ${err.slice(-1000)}`)), 15000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = pattern.exec(out);
      if (match) { clearTimeout(timer); stderrOf.set(match[1], {child, text: () => err}); resolve(match[1]); }
    });
    child.stderr.on('data', (chunk) => { err += chunk; });
    child.on('exit', (code) => reject(new Error(`${what} exited (${code}) before starting: ${err.slice(-1000)}`)));
  });
}

// docker/nginx.conf in front of puzzled (as tests/scaleout/run.sh runs it): only its listen line
// changed, its upstream.conf naming the one puzzled; resolves with nginx's base URL.
async function startNginx(upstream) {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'puzzled-browser-nginx-'));
  fs.chmodSync(prefix, 0o755); // nginx's workers run as nobody when the test runs as root
  const port = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => { const {port: p} = probe.address(); probe.close(() => resolve(p)); });
  });
  const conf = fs.readFileSync(path.join(__dirname, '..', '..', 'docker', 'nginx.conf'), 'utf8')
    .replace(/^( *)listen 8080;$/m, `$1listen 127.0.0.1:${port};`);
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), conf);
  fs.writeFileSync(path.join(prefix, 'upstream.conf'), `server ${new URL(upstream).host};\n`);
  const nginx = spawn('nginx', ['-p', `${prefix}/`, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {stdio: 'ignore'});
  children.push(nginx);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try { await fetch(`${base}/healthz`); return base; } catch { await new Promise((r) => setTimeout(r, 50)); }
  }
  throw new Error('nginx did not start');
}

// ---- a small sequential runner ----
const tests = [];
const test = (name, fn) => tests.push({name, fn});
function check(condition, message) { if (!condition) throw new Error(message); }
function equal(actual, expected, what) {
  check(JSON.stringify(actual) === JSON.stringify(expected), `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

// ---- independent references ----
const factorial = (n) => (n <= 1n ? 1n : n * factorial(n - 1n));
function queensAttack(columns) {
  for (let a = 0; a < columns.length; a++) {
    for (let b = a + 1; b < columns.length; b++) {
      if (columns[a] === columns[b] || Math.abs(columns[a] - columns[b]) === b - a) return true;
    }
  }
  return false;
}
const isKnightMove = ([r1, c1], [r2, c2]) => {
  const dr = Math.abs(r1 - r2), dc = Math.abs(c1 - c2);
  return (dr === 1 && dc === 2) || (dr === 2 && dc === 1);
};
const lettersChanged = (a, b) => Array.from(a).filter((letter, i) => Array.from(b)[i] !== letter).length;

async function metric(base, name) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  check(line !== undefined, `/metrics has no ${name}`);
  return Number(line.split(' ')[1]);
}

// ---- page helpers ----
async function openEndpoint(page, base, endpointPath) {
  await page.goto(`${base}/#${endpointPath}`);
  await page.waitForSelector('body[data-ready=true]');
  await page.waitForFunction((p) => document.getElementById('endpoint-choice').value === p, endpointPath);
}

// Sets the form's fields ('' empties one; untouched ones keep the spec's example) and sends it.
async function send(page, fields, {stream = false, wait = true} = {}) {
  for (const [name, value] of Object.entries(fields)) {
    const tag = await page.$eval(`#field-${name}`, (e) => e.tagName);
    if (tag === 'SELECT') await page.selectOption(`#field-${name}`, value === '' ? '' : JSON.stringify(value));
    else await page.fill(`#field-${name}`, String(value));
  }
  if (await page.isVisible('#stream-choice')) await page.setChecked('#stream-choice', stream);
  await page.click('#send');
  if (wait) await page.waitForFunction(() => !document.getElementById('send').disabled, null, {timeout: 60000});
  return page.textContent('#status');
}

async function clearAll(page) {
  for (const input of await page.$$('#fields input, #fields textarea')) await input.fill('');
  for (const select of await page.$$('#fields select')) await select.selectOption('');
}

// ---- the tests ----
test('every computing route of the server has a form in the playground', async ({page, base}) => {
  const notFound = await (await fetch(`${base}/no-such-page`)).json();
  const routes = notFound.error.message.replace(/^.*the endpoints are /, '').split(', ');
  const computing = [];
  for (const route of routes) {
    const preflight = await fetch(`${base}${route}`, {method: 'OPTIONS'});
    if ((preflight.headers.get('Allow') ?? '').includes('POST')) computing.push(route);
  }
  check(computing.length >= 20, `only ${computing.length} computing routes found in ${routes}`);
  await openEndpoint(page, base, '/queens');
  const options = await page.$$eval('#endpoint-choice option', (list) => list.map((o) => o.value));
  equal([...options].sort(), [...computing].sort(), 'the endpoints offered');
});

test('every form, sent with the example of openapi.yaml, is answered 200', async ({page, base}) => {
  await openEndpoint(page, base, '/queens');
  const options = await page.$$eval('#endpoint-choice option', (list) => list.map((o) => o.value));
  for (const endpointPath of options) {
    await openEndpoint(page, base, endpointPath);
    const status = await send(page, {});
    check(/^200 /.test(status), `${endpointPath}: ${status}`);
    const raw = await page.textContent('#raw-text');
    const streamed = await page.isVisible('#stream');
    check(raw.length > 0 || streamed, `${endpointPath}: nothing shown`);
    if (!streamed) JSON.parse(raw);
  }
});

test('queens: all 92 boards of 8 x 8, paged, none attacking; exact counts', async ({page, base, shot}) => {
  await openEndpoint(page, base, '/queens');
  await clearAll(page);
  await send(page, {n: 8});
  equal(await page.getAttribute('#number-count', 'data-exact'), '92', 'solutions of 8 queens (OEIS A000170)');
  const seen = new Set();
  for (let i = 0; i < 3; i++) {
    const queens = await page.$$eval('#picture svg circle.queen', (cs) => cs.map((c) => [Number(c.getAttribute('cy')) - 0.5, Number(c.getAttribute('cx')) - 0.5]));
    equal(queens.length, 8, 'queens drawn');
    const columns = queens.sort((a, b) => a[0] - b[0]).map(([, col]) => col);
    check(!queensAttack(columns), `solution ${i + 1} has attacking queens: ${columns}`);
    seen.add(columns.join());
    if (i === 0) await shot('queens-8');
    await page.click('.pager button:has-text("Next")');
  }
  equal(seen.size, 3, 'distinct solutions while paging');
  equal(await page.textContent('.page-number'), 'solution 4 of 92', 'the pager');
  await send(page, {n: 12, mode: 'count'}); // small enough for a sanitizer build's time limit
  equal(await page.getAttribute('#number-count', 'data-exact'), '14200', 'solutions of 12 queens (OEIS A000170)');
  await send(page, {n: 1000, mode: 'first'});
  check(await page.isVisible('#picture canvas'), 'a 1000 x 1000 board is a canvas');
});

test('big integers stay exact (BigInt): rank and unrank of 25 items', async ({page, base}) => {
  const items = Array.from({length: 25}, (_, i) => i + 1);
  const last = factorial(25n) - 1n;
  await openEndpoint(page, base, '/permutation/rank');
  await clearAll(page);
  await send(page, {permutation: JSON.stringify([...items].reverse())});
  equal(await page.getAttribute('#number-rank', 'data-exact'), last.toString(), 'rank of the reversed permutation (25! - 1)');
  equal(await page.getAttribute('#number-total', 'data-exact'), factorial(25n).toString(), 'total (25!)');
  await openEndpoint(page, base, '/permutation/unrank');
  await clearAll(page);
  await send(page, {items: JSON.stringify(items), rank: last.toString()});
  const answer = JSON.parse(await page.textContent('#raw-text'));
  equal(answer.permutation, [...items].reverse(), 'unrank of 25! - 1');
});

test("knight's tour: numbered moves that are knight moves, pause, a canvas for a big board", async ({page, base, shot}) => {
  await openEndpoint(page, base, '/knight-tour');
  await clearAll(page);
  await send(page, {rows: 8, cols: 8});
  await page.waitForSelector('#picture[data-tour-done=true]');
  const squares = await page.$$eval('#picture svg text.step', (ts) => ts.map((t) => [Number(t.textContent), Number(t.getAttribute('y')) - 0.5, Number(t.getAttribute('x')) - 0.5]));
  equal(squares.length, 64, 'numbered squares');
  const path = squares.sort((a, b) => a[0] - b[0]).map(([, r, c]) => [r, c]);
  equal(new Set(path.map(String)).size, 64, 'distinct squares');
  for (let i = 1; i < 64; i++) check(isKnightMove(path[i - 1], path[i]), `move ${i} is not a knight move: ${path[i - 1]} -> ${path[i]}`);
  equal(await page.$$eval('#picture svg line.move', (ls) => ls.length), 63, 'moves drawn');
  await shot('knight-8');

  await send(page, {rows: 30, cols: 30});
  await page.click('button.pause');
  const paused = await page.textContent('.tour-progress');
  await page.waitForTimeout(400);
  equal(await page.textContent('.tour-progress'), paused, 'progress while paused');
  check(paused !== 'move 900 of 900', 'paused before the end');
  await page.click('button.pause');
  await page.waitForSelector('#picture[data-tour-done=true]');

  await send(page, {rows: 300, cols: 300});
  await page.waitForSelector('#picture[data-tour-done=true]', {timeout: 30000});
  check(await page.isVisible('#picture canvas'), 'a 300 x 300 tour is drawn on a canvas');
  equal(await page.$$eval('#picture svg', (s) => s.length), 0, 'no SVG for a big board');
  await shot('knight-300');
});

test('word ladder: every shortest ladder, one marked letter per rung', async ({page, base, shot}) => {
  await openEndpoint(page, base, '/word-ladder');
  await clearAll(page);
  await send(page, {from: 'cold', to: 'warm', all: true});
  const ladders = await page.$$eval('.ladder', (ls) => ls.map((l) => Array.from(l.children, (li) => ({
    word: li.textContent, marked: Array.from(li.querySelectorAll('mark'), (m) => m.textContent)}))));
  const total = Number(await page.getAttribute('#number-total', 'data-exact'));
  equal(ladders.length, total, 'ladders drawn = total');
  check(total >= 2, 'cold -> warm has several shortest ladders');
  const steps = Number(await page.getAttribute('#number-steps', 'data-exact'));
  const distinct = new Set();
  for (const ladder of ladders) {
    equal(ladder.length, steps + 1, 'rungs');
    equal([ladder[0].word, ladder[ladder.length - 1].word], ['cold', 'warm'], 'ends');
    ladder.forEach((rung, i) => {
      if (i === 0) return equal(rung.marked, [], 'first rung');
      equal(lettersChanged(rung.word, ladder[i - 1].word), 1, `${ladder[i - 1].word} -> ${rung.word}`);
      equal(rung.marked.length, 1, `marks on ${rung.word}`);
    });
    distinct.add(ladder.map((r) => r.word).join());
  }
  equal(distinct.size, ladders.length, 'distinct ladders');
  await shot('word-ladder');
  // a field that takes a name or a list: a bare name is sent as a JSON string
  const named = await send(page, {all: '', dictionary: 'common'});
  check(/^200 /.test(named), `dictionary: common: ${named}`);
  check((await page.textContent('#curl-line')).includes('"dictionary":"common"'), 'the name sent as a string');
});

test('sudoku: the generated puzzle and its solution are drawn; an SVG answer is shown', async ({page, base, shot}) => {
  await openEndpoint(page, base, '/sudoku/generate');
  await send(page, {});
  equal(await page.$$eval('.sudokus svg', (s) => s.length), 2, 'grids');
  const answer = JSON.parse(await page.textContent('#raw-text'));
  const filled = await page.$$eval('.sudokus svg:nth-child(2) text', (ts) => ts.map((t) => t.textContent).join(''));
  equal(filled, answer.solution, 'the solution grid');
  await shot('sudoku');
  await send(page, {format: 'svg'});
  await page.waitForFunction(() => document.querySelector('img.answer-image')?.complete);
  check(await page.$eval('img.answer-image', (i) => i.naturalWidth > 0), 'the SVG answer is shown as an image');
  await shot('sudoku-svg');
});

test('a stream is read as it comes (live counter) and Stop ends the generation on the server', async ({page, base, shot, allow}) => {
  const abortedBefore = await metric(base, 'puzzled_streams_aborted_total');
  await openEndpoint(page, base, '/permutations');
  await clearAll(page);
  await send(page, {items: JSON.stringify(Array.from({length: 12}, (_, i) => i))}, {stream: true, wait: false});
  const count = async () => Number((await page.textContent('#stream-count')).replace(/,/g, ''));
  await page.waitForFunction(() => Number(document.getElementById('stream-count').textContent.replace(/,/g, '')) > 1000);
  const first = await count();
  await page.waitForTimeout(300);
  const second = await count();
  check(second > first, `the counter moves (${first} then ${second})`);
  equal(await page.$$eval('#stream-items li', (li) => li.length), 20, 'first items shown');
  equal(JSON.parse(await page.textContent('#stream-items li')), Array.from({length: 12}, (_, i) => i), 'the first permutation');
  await shot('stream');
  await page.click('#stop');
  await page.waitForFunction(() => /Stopped/.test(document.getElementById('status').textContent));
  // 12! = 479,001,600 lines: the stream cannot have ended by itself
  check(await count() < 479001600, 'stopped before the end');
  let aborted = abortedBefore;
  for (let i = 0; i < 50 && aborted === abortedBefore; i++) {
    await page.waitForTimeout(100);
    aborted = await metric(base, 'puzzled_streams_aborted_total');
  }
  equal(aborted, abortedBefore + 1, 'puzzled_streams_aborted_total after Stop');
  const bytes = await metric(base, 'puzzled_streamed_bytes_total');
  await page.waitForTimeout(500);
  equal(await metric(base, 'puzzled_streamed_bytes_total'), bytes, 'streamed bytes once stopped');
  allow(/net::ERR_ABORTED|aborted/i);
});

test('an error is shown next to the field it names', async ({page, base, shot, allow}) => {
  allow(/status of 400/);
  await openEndpoint(page, base, '/queens');
  await clearAll(page);
  const status = await send(page, {n: 0});
  check(/^400 invalid_field \(field n\)/.test(status), `status: ${status}`);
  check((await page.textContent('#error-n')).length > 10, 'the message next to n');
  equal(await page.getAttribute('#field-n', 'aria-invalid'), 'true', 'n marked invalid');
  await shot('error');
  const local = await send(page, {n: 8, placed: '[[0, 0'});
  check(/Not sent/.test(local), `status: ${local}`);
  equal(await page.textContent('#error-placed'), 'not valid JSON', 'a field that is not JSON');
  equal(await page.textContent('#error-n'), '', 'n no longer in error');
});

test('the curl command answers what the page got', async ({page, base}) => {
  await openEndpoint(page, base, '/queens');
  await clearAll(page);
  await send(page, {n: 6});
  const line = await page.textContent('#curl-line');
  check(line.startsWith(`curl -sS '${base}/queens'`), `curl line: ${line}`);
  const out = execFileSync('bash', ['-c', line], {encoding: 'utf8'});
  equal(JSON.parse(out), JSON.parse(await page.textContent('#raw-text')), 'curl output vs the page');
});

test('the playground is keyboard usable', async ({page, base}) => {
  await openEndpoint(page, base, '/word-ladder');
  for (let i = 0; i < 12 && await page.evaluate(() => document.activeElement.id) !== 'endpoint-choice'; i++) await page.keyboard.press('Tab');
  equal(await page.evaluate(() => document.activeElement.id), 'endpoint-choice', 'Tab reaches the endpoint list');
  await page.keyboard.press('Tab');
  equal(await page.evaluate(() => document.activeElement.id), 'field-from', 'then the first field');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('cold');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^200/.test(document.getElementById('status').textContent));
  check(await page.isVisible('.ladder'), 'Enter sent the form');
});

test('phone width (390 px): nothing wider than the screen', async ({page, base, shot}) => {
  await page.setViewportSize({width: 390, height: 844});
  for (const endpointPath of ['/knight-tour', '/word-ladder', '/queens']) {
    await openEndpoint(page, base, endpointPath);
    await send(page, {});
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    check(width <= 390, `${endpointPath}: the page is ${width} px wide`);
  }
  await page.screenshot({path: path.join(artifacts, 'phone-queens.png'), fullPage: true});
  await shot('phone');
});

test('/docs: the reference written from openapi.yaml, by keyboard, in both colour schemes, linked to the playground', async ({page, base}) => {
  await page.goto(`${base}/docs`);
  const operations = await page.$$eval('section.operation', (sections) => sections.length);
  check(operations >= 60, `only ${operations} operations on the page`);
  await page.keyboard.press('Tab');
  equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the reference', 'the first Tab stop');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  check(await page.evaluate(() => document.querySelector('#content').contains(document.activeElement)),
    'after the skip link, Tab goes into the reference');
  await page.click('nav.toc a[href="#postQueens"]');
  await page.waitForFunction(() => {
    const top = document.querySelector('#postQueens h3').getBoundingClientRect().top;
    return top >= 0 && top < innerHeight;
  }); // the table of contents brings POST /queens into view
  const view = (name) => page.screenshot({path: path.join(artifacts, `${name}.png`)}); // the page is too long for a whole shot
  await view('docs');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({colorScheme: 'dark'});
  equal(await background(), 'rgb(19, 20, 23)', 'the dark scheme');
  await view('docs-dark');
  await page.emulateMedia({colorScheme: 'light'});
  equal(await background(), 'rgb(255, 255, 255)', 'the light scheme');
  await page.setViewportSize({width: 320, height: 800});
  const taller = await page.evaluate(() => [...document.querySelectorAll('section[class*="height-"]')].filter((section) => {
    const given = Number(section.className.match(/height-(\d+)/)[1]);
    section.style.contentVisibility = 'visible';
    return section.getBoundingClientRect().height > given;
  }).map((section) => section.id));
  equal(taller, [], 'sections drawn taller at 320 px than the height web/docs.py gave them');
  await page.click('#postQueens a.try');
  await page.waitForFunction(() => document.querySelector('#endpoint-choice')?.value === '/queens');
  equal(new URL(page.url()).hash, '#/queens', 'Try it in the playground opens /queens');
});

test('HTML pages carry the security headers', async ({base}) => {
  for (const page of ['/', '/docs']) {
    const response = await fetch(`${base}${page}`);
    const policy = response.headers.get('Content-Security-Policy') ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'"]) {
      check(policy.includes(directive), `${page}: CSP ${policy} lacks ${directive}`);
    }
    check(!policy.includes('unsafe-inline') && !policy.includes('unsafe-eval'), `${page}: CSP ${policy}`);
    equal(response.headers.get('Referrer-Policy'), 'no-referrer', `${page}: Referrer-Policy`);
    equal(response.headers.get('X-Content-Type-Options'), 'nosniff', `${page}: nosniff`);
    const again = await fetch(`${base}${page}`, {headers: {'If-None-Match': response.headers.get('ETag')}});
    equal(again.status, 304, `${page}: conditional GET`);
  }
});

test('a page on another origin calls every endpoint (preflight, NDJSON reader, 4xx body)', async ({page, base, staticBase, allow}) => {
  allow(/status of 400/);
  await page.goto(`${staticBase}/index.html`);
  const seen = await page.evaluate((service) => crossOriginChecks(service), base);
  check(seen.origin !== new URL(base).origin, 'another origin');
  check(seen.calls.length >= 20, `${seen.calls.length} endpoints called`);
  for (const call of seen.calls) {
    equal([call.path, call.status, call.json], [call.path, 200, true], 'POST with Content-Type: application/json');
    check(call.requestId, `${call.path}: X-Request-Id readable (exposed)`);
  }
  equal([seen.stream.status, seen.stream.type], [200, 'application/x-ndjson'], 'the stream');
  equal(seen.stream.lines.length, 120, 'permutations of 5 (5!)');
  equal(new Set(seen.stream.lines.map(String)).size, 120, 'distinct permutations');
  equal([seen.error.status, seen.error.body.error.code, seen.error.body.error.field], [400, 'invalid_field', 'n'], 'the 4xx body');
});

test('behind the nginx of docker/: the playground, a stream, /docs and the headers', async ({page, proxied, shot}) => {
  await openEndpoint(page, proxied, '/word-ladder');
  check(/^200 /.test(await send(page, {})), 'the word ladder through nginx');
  check(await page.isVisible('.ladder'), 'the ladder is drawn');
  await openEndpoint(page, proxied, '/permutations');
  await clearAll(page);
  await send(page, {items: JSON.stringify([1, 2, 3, 4, 5, 6, 7])}, {stream: true});
  equal(await page.textContent('#stream-count'), '5,040', 'the stream through nginx (7!)');
  await page.goto(`${proxied}/docs`);
  check(await page.$$eval('section.operation', (sections) => sections.length) >= 60, '/docs through nginx');
  await page.screenshot({path: path.join(artifacts, 'docs-behind-nginx.png')});
  const response = await fetch(`${proxied}/`);
  check((response.headers.get('Content-Security-Policy') ?? '').includes("frame-ancestors 'none'"), 'CSP through nginx');
  equal(response.headers.get('Referrer-Policy'), 'no-referrer', 'Referrer-Policy through nginx');
});

// ---- running them ----
async function main() {
  fs.mkdirSync(artifacts, {recursive: true});
  const base = givenBase ?? await startAndRead(bin, ['--host', '127.0.0.1', '--port', '0', '--client-rate', '0'],
    /^listening on (http:\/\/\S+)$/m, 'puzzled');
  const staticPort = await startAndRead('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1',
    '--directory', path.join(__dirname, 'cross_origin')], /port (\d+)/, 'the static server');
  const staticBase = `http://127.0.0.1:${staticPort}`;
  const proxied = await startNginx(base);
  const browser = await chromium.launch({executablePath: CHROMIUM, args: ['--no-sandbox']});
  let failed = 0;
  const only = new RegExp(process.env.BROWSER_TESTS ?? '');
  const chosen = tests.filter((t) => only.test(t.name));
  for (const {name, fn} of chosen) {
    const context = await browser.newContext({viewport: {width: 1100, height: 900}});
    const page = await context.newPage();
    const problems = [], allowed = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const slug = name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase().slice(0, 60);
    const shot = (label) => page.screenshot({path: path.join(artifacts, `${label}.png`), fullPage: true});
    const started = Date.now();
    try {
      await fn({page, base, staticBase, proxied, shot, allow: (pattern) => allowed.push(pattern)});
      const unexpected = problems.filter((p) => !allowed.some((pattern) => pattern.test(p)));
      check(unexpected.length === 0, `console errors:\n    ${unexpected.join('\n    ')}`);
      console.log(`ok    ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed++;
      console.log(`FAIL  ${name}\n    ${error.message}`);
      await page.screenshot({path: path.join(artifacts, `failed-${slug}.png`), fullPage: true}).catch(() => {});
    }
    await context.close();
  }
  await browser.close();
  console.log(`browser: ${chosen.length - failed} of ${chosen.length} passed; screenshots in ${artifacts}`);
  return failed === 0 && (givenBase !== undefined || await stoppedCleanly(stderrOf.get(base)));
}

// Stops puzzled with SIGTERM: it must exit 0 with no sanitizer report (when built with them).
async function stoppedCleanly(server) {
  children.filter((c) => c !== server.child).forEach((c) => c.kill()); // nginx's idle connections first
  const code = await new Promise((resolve) => { server.child.once('exit', (c) => resolve(c)); server.child.kill('SIGTERM'); });
  const reports = server.text().split('\n').filter((line) => /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:/.test(line));
  if (code === 0 && reports.length === 0) return true;
  console.log(`FAIL  puzzled stopped with ${code}${reports.length ? `; sanitizer reports:\n    ${reports.slice(0, 10).join('\n    ')}` : ''}`);
  return false;
}

main().then((ok) => { children.forEach((c) => c.kill()); process.exit(ok ? 0 : 1); },
  (error) => { console.error(error); children.forEach((c) => c.kill()); process.exit(1); });
