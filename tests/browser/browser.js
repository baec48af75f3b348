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

// Answers given on `route` to GET with `status`, from /metrics (0 when none yet).
async function answersOf(base, route, status) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`puzzled_requests_total{route="${route}",method="GET",status="${status}"} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

// ---- page helpers ----
async function openEndpoint(page, base, endpointPath) {
  await page.goto(`${base}/#${endpointPath}`);
  await page.waitForSelector('body[data-ready=true]');
  // the endpoint opens with its worked example sent: wait for that answer
  await page.waitForFunction((p) => document.getElementById('endpoint-choice').value === p &&
    document.getElementById('answer').dataset.state === 'done', endpointPath);
}

// Opens a play mode and waits for its board (and its first answer) to be ready.
async function openPlay(page, base, view) {
  await page.goto(`${base}/#play/${view}`);
  await page.waitForSelector('#play-board [data-ready=true]');
  await page.waitForFunction(() => !document.body.dataset.busy);
}

// Clicks a button and waits for the status line to change and the service's answer to be in.
async function act(page, selector) {
  const before = await page.textContent('#play-status');
  await page.click(selector);
  await page.waitForFunction((b) => !document.body.dataset.busy && document.getElementById('play-status').textContent !== b, before);
  return page.textContent('#play-status');
}

// Plays a Sudoku to its end with the page's hints: each names a value and a cell, which the test
// clicks and types; the finished grid is checked independently (every unit holds each value once).
async function solveWithHints(page, box) {
  const size = box * box;
  const empty = await page.$$eval('.sudoku-board .square', (cells) => cells.filter((c) => c.dataset.value === '.').length);
  for (let i = 0; i < empty; i++) {
    const hint = await act(page, '#sudoku-hint');
    const match = /Place (\S+) in row (\d+), column (\d+)\./.exec(hint);
    check(match, `hint ${i + 1} places a value: ${hint}`);
    await page.click(`.sudoku-board [data-row="${match[2] - 1}"][data-col="${match[3] - 1}"]`);
    await page.keyboard.press(match[1]);
  }
  await page.waitForFunction(() => document.getElementById('play-status').dataset.solved === 'true');
  check(/Solved/.test(await page.textContent('#play-status')), 'the page says solved');
  const grid = await page.$$eval('.sudoku-board .square', (cells) => cells.map((c) => c.dataset.value));
  const units = [];
  for (let k = 0; k < size; k++) {
    units.push(Array.from({length: size}, (_, j) => grid[k * size + j]));
    units.push(Array.from({length: size}, (_, j) => grid[j * size + k]));
    units.push(Array.from({length: size}, (_, j) => grid[(Math.floor(k / box) * box + Math.floor(j / box)) * size + (k % box) * box + (j % box)]));
  }
  for (const unit of units) equal(new Set(unit).size, size, `a unit of the solved grid (${unit.join('')})`);
}

// Screenshots of a play view at desktop and phone size, light and dark.
async function shotsOf(browser, url, label) {
  for (const [size, viewport] of [['desktop', {width: 1280, height: 800}], ['phone', {width: 390, height: 844}]]) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({viewport, colorScheme});
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForSelector('#play-board [data-ready=true]');
      await page.waitForFunction(() => !document.body.dataset.busy);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      check(width <= viewport.width, `${label} ${size}: the page is ${width} px wide`);
      await page.screenshot({path: path.join(artifacts, `play-${label}-${size}-${colorScheme}.png`)});
      await context.close();
    }
  }
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
  await send(page, {n: 8}); // the list has no total: the pager below counts its 92 boards
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
  equal(await page.getAttribute('#number-total', 'data-exact'), '14200', 'solutions of 12 queens (OEIS A000170)');
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
  // the counter moves: waited for, not timed (a loaded machine may stall the stream for a while)
  const first = await count();
  await page.waitForFunction((f) => Number(document.getElementById('stream-count').textContent.replace(/,/g, '')) > f, first, {timeout: 30000});
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

// Needs a server that reports progress (Accept: text/event-stream, documented in its openapi.yaml);
// PUZZLED_TEST_PROGRESS=1 runs it whatever the spec says.
test('a long count: the bar moves with the time left, and Stop ends the computation on the server', async ({page, base, shot, allow}) => {
  const spec = await (await fetch(`${base}/openapi.yaml`)).text();
  if (!spec.includes('text/event-stream') && !process.env.PUZZLED_TEST_PROGRESS) return 'skipped: this server documents no progress events';
  await openEndpoint(page, base, '/queens');
  await clearAll(page);
  // n = 18 counts 666,090,624 boards: minutes on these machines, so Stop always comes first
  await send(page, {n: 18, mode: 'count'}, {wait: false});
  await page.waitForFunction(() => Number(document.getElementById('progress').dataset.done) > 0, null, {timeout: 30000});
  const first = Number(await page.getAttribute('#progress', 'data-done'));
  await page.waitForFunction((f) => Number(document.getElementById('progress').dataset.done) > f, first, {timeout: 30000});
  check(await page.$eval('#progress-bar', (bar) => bar.value > 0 && bar.value < 1), 'the bar is part filled');
  check(/% of [\d,]+ .* left/.test(await page.textContent('#progress-text')), `the time left: ${await page.textContent('#progress-text')}`);
  await shot('progress');
  await page.click('#stop');
  await page.waitForFunction(() => /Stopped/.test(document.getElementById('status').textContent));
  check(await page.isHidden('#progress'), 'the bar is gone');
  let running = 1;
  for (let i = 0; i < 100 && running > 0; i++) {
    await page.waitForTimeout(100);
    running = await metric(base, 'puzzled_progress_computations_in_flight');
  }
  equal(running, 0, 'computations still running on the server once stopped');
  allow(/net::ERR_ABORTED|aborted/i);
});

// The browser's own EventSource, not the playground's reader: when the stream ends it reconnects
// with Last-Event-ID, the 204 to that stops it for good (readyState CLOSED), and the count ran once.
test('EventSource stops after the stream ends: its reconnect is answered 204, nothing computed again', async ({page, base}) => {
  const path = '/queens?n=12&mode=count';
  const before = {computed: await answersOf(base, '/queens', 200), reconnects: await answersOf(base, '/queens', 204)};
  await page.goto(`${base}/docs`); // same origin, and a page that asks the service for nothing itself
  const seen = await page.evaluate((p) => new Promise((resolve) => {
    const source = new EventSource(p);
    const events = [];
    for (const type of ['progress', 'result', 'failed']) source.addEventListener(type, (e) => events.push(`${type} ${e.lastEventId}`));
    source.addEventListener('error', () => {
      events.push(`error, readyState ${source.readyState}`);
      if (source.readyState === EventSource.CLOSED) resolve(events);
    });
    setTimeout(() => { source.close(); resolve([...events, 'still open after 60 s']); }, 60000);
  }), path);
  const last = seen.at(-3) ?? '';
  check(/^result \d+$/.test(last) && seen.filter((e) => e.startsWith('result')).length === 1, `one result, with its id: ${seen}`);
  equal(seen.slice(-2), ['error, readyState 0', 'error, readyState 2'], 'the stream\'s end (reconnecting), then the 204 (closed)');
  equal(await answersOf(base, '/queens', 200) - before.computed, 1, 'counts computed (/metrics, 200 on /queens)');
  equal(await answersOf(base, '/queens', 204) - before.reconnects, 1, 'reconnects answered 204');
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
  for (let i = 0; i < 20 && await page.evaluate(() => document.activeElement.id) !== 'endpoint-choice'; i++) await page.keyboard.press('Tab');
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

test('Markdown: code, emphasis, lists and links become elements, never markup from the text', async ({page, base}) => {
  await openPlay(page, base, 'queens');
  const html = await page.evaluate(() => {
    const box = document.createElement('div');
    const cases = ['`solutions` lists **all**, *some* or _one_', 'first\nline\n\n- a `b`\n- c\n  continued\n\n1. one\n2. two',
      '[docs](/docs) [bad](javascript:alert(1)) <img src=x onerror=alert(1)>', 'snake_case_name and 2 * 3 * 4'];
    return cases.map((text) => { box.replaceChildren(Markdown.render(text)); return box.innerHTML; });
  });
  equal(html[0], '<p><code>solutions</code> lists <strong>all</strong>, <em>some</em> or <em>one</em></p>', 'inline');
  equal(html[1], '<p>first line</p><ul><li>a <code>b</code></li><li>c continued</li></ul><ol><li>one</li><li>two</li></ol>', 'blocks');
  equal(html[2], '<p><a href="/docs">docs</a> [bad](javascript:alert(1)) &lt;img src=x onerror=alert(1)&gt;</p>', 'links and markup');
  equal(html[3], '<p>snake_case_name and 2 * 3 * 4</p>', 'no emphasis inside words or around spaces');
});

test('the field help is rendered Markdown and each endpoint opens answered', async ({page, base}) => {
  await openEndpoint(page, base, '/queens');
  check(await page.$('#hint-mode code') !== null, 'code in the help of mode');
  check(!(await page.textContent('#hint-mode')).includes('`'), 'no backticks left');
  check(/^200 /.test(await page.textContent('#status')), 'the worked example answered');
  check(await page.isVisible('#picture svg'), 'and drawn');
  const box = await page.$eval('#picture', (p) => p.getBoundingClientRect().top);
  check(box < 900, `the drawing is in view (${box} px from the top)`);
});

test('sudoku 4 x 4 and 9 x 9: generated, filled in by key presses with hints until solved', async ({page, base, shot, browser}) => {
  await openPlay(page, base, 'sudoku?box=2&difficulty=simple&seed=7');
  await solveWithHints(page, 2);
  await shot('play-sudoku-4-solved');
  await openPlay(page, base, 'sudoku?box=3&difficulty=easy&seed=11');
  await solveWithHints(page, 3);
  await shot('play-sudoku-9-solved');
  await shotsOf(browser, `${base}/#play/sudoku?box=3&difficulty=easy&seed=11`, 'sudoku');
});

test('sudoku: pencil marks, check marks conflicts, explain steps forwards and backwards', async ({page, base, shot}) => {
  await openPlay(page, base, 'sudoku?box=3&difficulty=easy&seed=11');
  const given = await page.$eval('.sudoku-board .square.given', (c) => ({r: c.dataset.row, v: c.dataset.value}));
  const emptyInRow = await page.$eval(`.sudoku-board [data-row="${given.r}"][data-value="."]`, (c) => c.dataset.col);
  await page.check('#pencil-mode');
  await page.click(`.sudoku-board [data-row="${given.r}"][data-col="${emptyInRow}"]`);
  await page.keyboard.press('1');
  await page.keyboard.press('2');
  equal(await page.textContent(`.sudoku-board [data-row="${given.r}"][data-col="${emptyInRow}"] .marks`), '1 2', 'pencil marks');
  await page.uncheck('#pencil-mode');
  await page.click(`.sudoku-board [data-row="${given.r}"][data-col="${emptyInRow}"]`);
  await page.keyboard.press(given.v); // the given's value again in its row
  const checked = await act(page, '#sudoku-check');
  check(/conflict/.test(checked), `check: ${checked}`);
  equal(await page.$$eval('.sudoku-board .conflict', (c) => c.length), 2, 'the two cells in conflict marked');
  await page.keyboard.press('Backspace');
  await act(page, '#sudoku-explain');
  await page.click('#explain-next');
  await page.click('#explain-next');
  check(/Step 2 of \d+/.test(await page.textContent('#explain-position')), 'step 2');
  check((await page.textContent('#explain-text')).length > 20, 'the step in words');
  await page.click('#explain-back');
  check(/Step 1 of/.test(await page.textContent('#explain-position')), 'back to step 1');
  await shot('play-sudoku-explain');
});

test('N-Queens: eight queens placed by clicks, attacked squares shaded, judged correct; solutions stepped', async ({page, base, shot, browser}) => {
  await openPlay(page, base, 'queens?n=8');
  const solution = [];
  const place = (row) => {
    if (row === 8) return true;
    for (let c = 0; c < 8; c++) {
      solution[row] = c;
      if (!queensAttack(solution.slice(0, row + 1)) && place(row + 1)) return true;
    }
    return false;
  };
  place(0);
  for (const [r, c] of solution.entries()) {
    await page.click(`#play-board [data-row="${r}"][data-col="${c}"]`);
    if (r === 0) check(await page.$eval(`#play-board [data-row="0"][data-col="${(c + 3) % 8}"]`, (b) => b.classList.contains('attacked')), 'its row shaded');
  }
  const verdict = await act(page, '#queens-verify');
  check(/^Correct/.test(verdict), `verify: ${verdict}`);
  await shot('play-queens-correct');
  await page.click('#play-board [data-row="7"][data-col="0"]'); // an attacking queen more
  check(/attack/.test(await act(page, '#queens-verify')), 'attacks found');
  await openPlay(page, base, 'queens?n=6&q=0.1');
  await act(page, '#queens-complete');
  const completed = await page.$$eval('#play-board .queen', (qs) => qs.map((q) => [Number(q.dataset.row), Number(q.dataset.col)]));
  equal(completed.length, 6, 'six queens');
  check(completed.some(([r, c]) => r === 0 && c === 1) && !queensAttack(completed.sort((a, b) => a[0] - b[0]).map(([, c]) => c)), 'completed around the placed queen');
  await act(page, '#queens-all');
  equal(await page.textContent('#solution-position'), 'Solution 1 of 4', 'the 4 solutions of 6 x 6 (OEIS A000170)');
  await page.click('text=Next →');
  equal(await page.textContent('#solution-position'), 'Solution 2 of 4', 'stepped');
  await shotsOf(browser, `${base}/#play/queens?n=8&q=${solution.map((c, r) => `${r}.${c}`).slice(0, 5).join(',')}`, 'queens');
});

test('word ladder: a puzzle finished by typing, the shortest ladders revealed', async ({page, base, shot, browser}) => {
  await openPlay(page, base, 'ladder?length=4&steps=3&seed=5');
  const [from, to] = await page.$$eval('#ladder-rungs .end', (ends) => ends.map((e) => e.textContent));
  const known = await (await fetch(`${base}/word-ladder`, {method: 'POST', body: JSON.stringify({from, to, dictionary: 'common'})})).json();
  equal(known.steps, 3, 'the puzzle has 3 steps');
  for (const word of known.ladder.slice(1)) {
    await page.click('#ladder-word');
    await page.keyboard.type(word);
    await page.keyboard.press('Enter');
  }
  await page.waitForFunction(() => document.getElementById('play-status').dataset.valid === 'true' && !document.body.dataset.busy);
  check(/Solved in 3 steps/.test(await page.textContent('#play-status')), 'solved');
  check(await page.$$eval('#play-extra .ladder', (l) => l.length) >= 1, 'the shortest ladders revealed');
  await shot('play-ladder-solved');
  await openPlay(page, base, `ladder?length=4&steps=3&seed=5`);
  await act(page, '#ladder-neighbours');
  for (const word of (await page.textContent('#play-extra .neighbours')).split(' ')) equal(lettersChanged(from, word), 1, `${word} is a neighbour of ${from}`);
  await shotsOf(browser, `${base}/#play/ladder?length=4&steps=3&seed=5&w=${known.ladder[1]}`, 'ladder');
});

test("knight's tour: a 5 x 5 tour finished by clicks, judged; hint; the service's tour watched", async ({page, base, shot, browser}) => {
  await openPlay(page, base, 'knight?n=5');
  const tour = [[0, 0]];
  const seen = new Set(['0.0']);
  const extend = () => {
    if (tour.length === 25) return true;
    const [r, c] = tour.at(-1);
    for (const [dr, dc] of [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]]) {
      const next = [r + dr, c + dc];
      if (next[0] < 0 || next[1] < 0 || next[0] > 4 || next[1] > 4 || seen.has(next.join('.'))) continue;
      tour.push(next); seen.add(next.join('.'));
      if (extend()) return true;
      tour.pop(); seen.delete(next.join('.'));
    }
    return false;
  };
  check(extend(), 'a 5 x 5 tour from the corner exists');
  for (const [i, [r, c]] of tour.entries()) {
    if (i === 1) {
      const legal = await page.$$eval('#play-board .legal', (b) => b.map((x) => [Number(x.dataset.row), Number(x.dataset.col)]));
      equal(legal.sort(), [[1, 2], [2, 1]], 'the legal moves from the corner marked');
      check(/Warnsdorff/.test(await act(page, '#knight-hint')), 'a Warnsdorff hint');
    }
    await page.click(`#play-board [data-row="${r}"][data-col="${c}"]`);
  }
  await page.waitForFunction(() => document.getElementById('play-status').dataset.valid === 'true' && !document.body.dataset.busy);
  check(/knight's tour/.test(await page.textContent('#play-status')), 'judged a tour');
  await shot('play-knight-solved');
  await openPlay(page, base, 'knight?n=5&p=0.0');
  await page.click('#knight-watch');
  await page.waitForFunction(() => document.getElementById('play-status').dataset.valid === 'true', null, {timeout: 20000});
  const path = await page.$$eval('#play-board .visited', (b) => b.map((x) => [Number(x.textContent), Number(x.dataset.row), Number(x.dataset.col)]).sort((a, z) => a[0] - z[0]));
  equal(path.length, 25, "the service's tour drawn");
  for (let i = 1; i < 25; i++) check(isKnightMove(path[i - 1].slice(1), path[i].slice(1)), `move ${i}`);
  await shotsOf(browser, `${base}/#play/knight?n=5&p=${tour.slice(0, 9).map(([r, c]) => `${r}.${c}`).join(',')}`, 'knight');
});

test('rank explorer: ranks to arrangements and back, big ranks exact', async ({page, base, shot, browser}) => {
  const items = 'abcdefghijklmnopqrstuvwxy'; // 25 items: 25! ranks, beyond 2^53
  await openPlay(page, base, `ranks?items=${items}`);
  equal(await page.$eval('#rank-tiles', (t) => t.textContent), items, 'rank 0 is the items in order');
  await page.click('#rank-last');
  await page.waitForFunction(() => !document.body.dataset.busy && document.getElementById('rank-tiles').dataset.rank !== '0');
  equal(await page.$eval('#rank-tiles', (t) => t.dataset.rank), (factorial(25n) - 1n).toString(), 'the last rank is 25! - 1');
  equal(await page.$eval('#rank-tiles', (t) => t.textContent), [...items].reverse().join(''), 'the last arrangement reverses the items');
  await page.fill('#rank-arrangement', 'bacdefghijklmnopqrstuvwxy');
  await act(page, 'text=Rank it');
  equal(await page.$eval('#rank-tiles', (t) => t.dataset.rank), factorial(24n).toString(), 'swapping the first two is rank 24!');
  await act(page, '#rank-previous');
  equal(await page.$eval('#rank-tiles', (t) => t.textContent), `a${[...items.slice(1)].reverse().join('')}`, 'rank 24! - 1: a, then the rest reversed');
  await page.fill('#rank-value', '1000');
  await act(page, 'text=Show');
  const arrangement = await page.$eval('#rank-tiles', (t) => t.textContent);
  await page.fill('#rank-arrangement', arrangement);
  await act(page, 'text=Rank it');
  equal(await page.$eval('#rank-tiles', (t) => t.dataset.rank), '1000', 'the round trip');
  await shot('play-ranks');
  await openPlay(page, base, 'ranks?kind=combination&items=abcdef&k=3&rank=19');
  equal(await page.$eval('#rank-tiles', (t) => t.textContent), 'def', 'the last of C(6, 3) = 20');
  await shotsOf(browser, `${base}/#play/ranks?items=${items}&rank=${factorial(24n)}`, 'ranks');
});

test('a play mode by keyboard alone: Tab to the board, arrows, Enter, then Tab to Verify', async ({page, base}) => {
  await openPlay(page, base, 'queens?n=4');
  for (let i = 0; i < 40 && !(await page.evaluate(() => document.activeElement.classList.contains('square'))); i++) await page.keyboard.press('Tab');
  equal(await page.evaluate(() => [document.activeElement.dataset.row, document.activeElement.dataset.col]), ['0', '0'], 'Tab reaches the board once, at its first square');
  const moves = [['ArrowRight'], ['ArrowDown', 'ArrowRight', 'ArrowRight'], ['ArrowDown', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft'], ['ArrowDown', 'ArrowRight', 'ArrowRight']];
  for (const keys of moves) {
    for (const key of keys) await page.keyboard.press(key);
    await page.keyboard.press('Enter');
  }
  equal(await page.$$eval('#play-board .queen', (q) => q.map((b) => `${b.dataset.row}.${b.dataset.col}`)), ['0.1', '1.3', '2.0', '3.2'], 'queens placed with Enter');
  for (let i = 0; i < 40 && await page.evaluate(() => document.activeElement.id) !== 'queens-verify'; i++) await page.keyboard.press('Tab');
  const before = await page.textContent('#play-status');
  await page.keyboard.press('Enter');
  await page.waitForFunction((b) => !document.body.dataset.busy && document.getElementById('play-status').textContent !== b, before);
  check(/^Correct/.test(await page.textContent('#play-status')), 'judged correct');
});

// The front page at a fixed UTC time: every card drawn, the day's puzzle that of the date's seed.
async function openHome(browser, base, time, viewport = {width: 1280, height: 900}, colorScheme = 'light') {
  const context = await browser.newContext({viewport, colorScheme});
  await context.clock.setFixedTime(new Date(time));
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${base}/`);
  await page.waitForSelector('#today[data-puzzle] .today-picture svg');
  await page.waitForFunction(() => [...document.querySelectorAll('.card-picture[data-picture]')]
    .every((box) => box.querySelector('img') ? box.querySelector('img').complete && box.querySelector('img').naturalWidth > 0 : box.childElementCount > 0));
  check(errors.length === 0, `front page errors: ${errors.join('; ')}`);
  const day = await page.evaluate(() => ({seed: document.getElementById('today').dataset.seed, puzzle: document.getElementById('today').dataset.puzzle,
    href: document.getElementById('today').getAttribute('href'),
    drawn: [...document.querySelectorAll('#today-picture text')].map((t) => `${t.getAttribute('x')},${t.getAttribute('y')}=${t.textContent}`).join(' ')}));
  return {context, page, day};
}

test('the front page: a drawn card per mode, the same puzzle all day, most of the screen content', async ({base, browser}) => {
  const utcSeed = (time) => time.slice(0, 10).replaceAll('-', ''); // 2026-03-04T… is 20260304
  const morning = '2026-03-04T00:00:05Z', night = '2026-03-04T23:59:55Z', next = '2026-03-05T00:00:05Z';
  const first = await openHome(browser, base, morning), second = await openHome(browser, base, night);
  equal(first.day.seed, utcSeed(morning), 'the seed is the UTC date');
  equal(second.day, first.day, 'two loads on the same UTC day: the same puzzle, drawn the same');
  const own = await (await fetch(`${base}/sudoku/generate?box=3&difficulty=easy&symmetry=none&seed=${utcSeed(morning)}`)).json();
  equal(first.day.puzzle, own.puzzle, "the day's puzzle is the service's for that seed");
  const givens = [...own.puzzle].filter((c) => c !== '.').length;
  equal(first.day.drawn.split(' ').length, givens, 'every given drawn');
  const tomorrow = await openHome(browser, base, next);
  check(tomorrow.day.seed === utcSeed(next) && tomorrow.day.puzzle !== first.day.puzzle, 'the next day has another puzzle');
  await Promise.all([second.context.close(), tomorrow.context.close()]);

  const {page} = first;
  const cards = await page.$$eval('.cards .card', (links) => links.map((a) => a.getAttribute('href')));
  equal(cards, ['#play/sudoku', '#play/queens', '#play/ladder', '#play/knight', '#play/ranks', '#/queens'], 'a card per mode, then any endpoint');
  for (const source of await page.$$eval('.card-picture img', (images) => images.map((i) => i.getAttribute('src')))) {
    const response = await fetch(`${base}${source}`);
    check(response.status === 200 && response.headers.get('Content-Type') === 'image/svg+xml' && response.headers.get('ETag'), `${source}: an SVG with an ETag`);
  }
  const ladder = await page.$$eval('[data-picture=ladder] li', (items) => items.map((li) => li.textContent));
  check(ladder.length > 1 && ladder.every((w, i) => i === 0 || lettersChanged(ladder[i - 1], w) === 1), `the ladder card: ${ladder}`);
  const tiles = await page.$$eval('[data-picture=ranks] .tile', (list) => list.map((t) => t.textContent).join(''));
  const rank = await page.$eval('[data-picture=ranks] [data-rank]', (figures) => figures.dataset.rank);
  const ranked = await (await fetch(`${base}/permutation/rank?text=${tiles}&pool_text=ABCDEFGHIJKLMNOPQRST`)).json();
  equal([[...tiles].sort().join(''), ranked.rank], ['ABCDEFGHIJKLMNOPQRST', rank], 'the rank card: an arrangement of its 20 letters, of the rank shown');
  check(BigInt(rank) > 2n ** 53n, `the rank card's rank is past 2^53, exact: ${rank}`);
  const example = await page.textContent('[data-picture=endpoint]');
  check(example.includes('POST /queens') && /"total": ?"92"/.test(example), `the endpoint card answered: ${example}`);

  for (const [size, viewport] of [['desktop', {width: 1280, height: 900}], ['phone', {width: 412, height: 900}]]) {
    for (const colorScheme of ['light', 'dark']) {
      const {context, page: view} = await openHome(browser, base, morning, viewport, colorScheme);
      const layout = await view.evaluate(() => ({width: document.documentElement.scrollWidth,
        bottom: document.getElementById('home-view').getBoundingClientRect().bottom,
        today: document.getElementById('today').getBoundingClientRect().bottom,
        card: document.querySelector('.cards .card-picture').getBoundingClientRect().bottom}));
      check(layout.width <= viewport.width, `front page ${size}: ${layout.width} px wide`);
      check(layout.bottom >= 0.85 * viewport.height, `front page ${size}: content ends at ${layout.bottom} px of ${viewport.height}`);
      check(layout.today <= viewport.height && layout.card <= viewport.height, `front page ${size}: the day's puzzle and the first card in view (${layout.today}, ${layout.card})`);
      await view.screenshot({path: path.join(artifacts, `home-${size}-${colorScheme}.png`)});
      await context.close();
    }
  }

  await page.click('#today');
  await page.waitForSelector('#play-board [data-ready=true]');
  const board = await page.$$eval('.sudoku-board .square', (cells) => cells.map((c) => c.dataset.value).join(''));
  equal(board, own.puzzle, "the day's card opens the same puzzle in the Sudoku mode");
  await first.context.close();
});

test('a shared address reopens the same view', async ({page, base, browser}) => {
  await openPlay(page, base, 'sudoku?box=2&difficulty=simple&seed=7');
  const hint = await act(page, '#sudoku-hint');
  const [, value, row, col] = /Place (\S+) in row (\d+), column (\d+)\./.exec(hint);
  await page.click(`.sudoku-board [data-row="${row - 1}"][data-col="${col - 1}"]`);
  await page.keyboard.press(value);
  await openPlay(page, base, 'queens?n=6&q=0.1,1.3');
  await page.click('#play-board [data-row="2"][data-col="5"]');
  for (const game of ['sudoku', 'queens']) {
    if (game === 'sudoku') await page.goBack(); // back to the Sudoku: its address kept the entry
    const shared = page.url();
    const cells = async (p) => p.$$eval('#play-board button.square', (b) => b.map((x) => `${x.className}:${x.textContent}`).join('|'));
    if (game === 'sudoku') await page.waitForSelector('#play-board [data-ready=true]');
    const before = await cells(page);
    const context = await browser.newContext({viewport: {width: 1100, height: 900}});
    const other = await context.newPage();
    await other.goto(shared);
    await other.waitForSelector('#play-board [data-ready=true]');
    await other.waitForFunction(() => !document.body.dataset.busy);
    await page.waitForFunction(() => !document.body.dataset.busy);
    equal(await cells(other), await cells(page), `${game}: the same board from ${shared}`);
    check(before.length > 0, 'cells');
    await context.close();
  }
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

// The same URL answers NDJSON or JSON by Accept, both cacheable for an hour: Vary: Accept keeps the
// two apart in Chromium's HTTP cache. The repeated fetches show the cache at work (the stored answer
// replayed, its X-Request-Id again), so the plain fetch's fresh JSON answer is Vary's doing.
test('a page on another origin: an NDJSON fetch, then a plain fetch of the same URL, gets JSON from Chromium\'s cache', async ({page, staticBase, base}) => {
  await page.goto(`${staticBase}/index.html`);
  const [lines, linesAgain, plain, plainAgain] = await page.evaluate((service) => cacheChecks(service), base);
  const permutations = ['abc', 'acb', 'bac', 'bca', 'cab', 'cba'];
  for (const seen of [lines, linesAgain]) {
    equal([seen.status, seen.type], [200, 'application/x-ndjson'], 'the NDJSON fetch');
    equal(seen.body, permutations.map((p) => `"${p}"\n`).join(''), 'the NDJSON lines');
  }
  equal(linesAgain.requestId, lines.requestId, 'the second NDJSON fetch is the cached answer (the cache is at work)');
  for (const seen of [plain, plainAgain]) {
    equal([seen.status, seen.type], [200, 'application/json'], 'the plain fetch gets JSON, not the cached NDJSON');
    equal(JSON.parse(seen.body), {kind: 'permutations', total: '6', next_offset: null, permutations}, 'the JSON answer');
  }
  check(plain.requestId !== lines.requestId, 'the plain fetch went to the service');
  equal(plainAgain.requestId, plain.requestId, 'the second plain fetch is the cached JSON answer');
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
      const note = await fn({page, base, staticBase, proxied, shot, browser, allow: (pattern) => allowed.push(pattern)});
      const unexpected = problems.filter((p) => !allowed.some((pattern) => pattern.test(p)));
      check(unexpected.length === 0, `console errors:\n    ${unexpected.join('\n    ')}`);
      console.log(`ok    ${name} (${Date.now() - started} ms)${note ? ` — ${note}` : ''}`);
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
