// The pages test (run by tests/pages/run.sh): every page listed in pages.json, served by a puzzled
// started here on a free port, audited in Debian's chromium by
// - Lighthouse 12 (its default "simulate" throttling: the metrics are computed from one trace of an
//   unthrottled load, so they move far less with the machine's load than real throttling would), with
//   the mobile preset (the default config, its CPU slowdown calibrated to the host: see
//   calibratedCpuSlowdown) and the desktop preset, once, or up to `runs` times while the runs fall
//   short; the run with the best performance score stands for the page and is kept in REPORTS_DIR. Its four category scores
//   must reach pages.json's minimum for the page's kind and its cumulative layout shift stay under
//   max_layout_shift; the raw metrics of every run are printed, so a drift is seen before it fails;
// - axe-core, run in the page (through the DevTools protocol, so the page's CSP still holds) at phone
//   and desktop widths in the light and the dark colour scheme: no violation allowed.
// The desktop preset runs once a document: a view of a document reached by its fragment (/#play/...)
// is the same HTML, scripts and styles laid out for another mode, and gets the mobile preset alone,
// the stricter judge of speed (4x CPU, a slow 4G link) and the same one of accessibility, best
// practices and SEO; its layout shift at desktop width is measured in axe-core's desktop views instead
// (every shift since the navigation, summed: at least Lighthouse's CLS, its largest window of shifts).
// A page marked `pending` in pages.json is audited and printed but its shortfalls do not fail the run;
// once it has none, the run fails until the mark is removed.
//   node pages.mjs PUZZLED_BIN REPORTS_DIR      (PAGES=regex, PAGES_RUNS=N: see run.sh)
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import {createRequire} from 'node:module';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher'; // Lighthouse's own launcher (its dependency, pinned in package-lock.json)
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const require = createRequire(import.meta.url);
const {chromium} = require('playwright-core');
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const [bin, reports] = process.argv.slice(2);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox'];
const config = JSON.parse(fs.readFileSync(new URL('./pages.json', import.meta.url), 'utf8'));
const RUNS = Number(process.env.PAGES_RUNS ?? config.runs);
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const PRESETS = {mobile: undefined, desktop: desktopConfig};
const METRICS = [ // audit id, label, unit
  ['first-contentful-paint', 'FCP', 'ms'], ['largest-contentful-paint', 'LCP', 'ms'],
  ['total-blocking-time', 'TBT', 'ms'], ['cumulative-layout-shift', 'CLS', ''],
  ['speed-index', 'SI', 'ms'], ['interactive', 'TTI', 'ms'],
];
const AXE_VIEWS = [
  {name: 'phone light', viewport: {width: 412, height: 823}, colorScheme: 'light'},
  {name: 'phone dark', viewport: {width: 412, height: 823}, colorScheme: 'dark'},
  {name: 'desktop light', viewport: {width: 1350, height: 940}, colorScheme: 'light'},
  {name: 'desktop dark', viewport: {width: 1350, height: 940}, colorScheme: 'dark'},
];

// puzzled on a free port; resolves with its base URL once it says it listens.
function startPuzzled() {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--host', '127.0.0.1', '--port', '0', '--client-rate', '0'], {stdio: ['ignore', 'pipe', 'pipe']});
    let out = '', err = '';
    const timer = setTimeout(() => reject(new Error(`puzzled did not start within 15 s: ${err.slice(-1000)}`)), 15000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (match) { clearTimeout(timer); resolve({child, base: match[1]}); }
    });
    child.stderr.on('data', (chunk) => { err += chunk; });
    child.on('exit', (code) => reject(new Error(`puzzled exited (${code}) before listening: ${err.slice(-1000)}`)));
  });
}

// Lighthouse's CPU slowdown is relative to the host: its default 4x makes a host of benchmarkIndex
// about 1533 stand for its target phone (docs/throttling.md, "CPU throttling"). A shared machine's
// speed moves from moment to moment (1,100 to 2,200 here when idle, far lower when a neighbour is
// busy), so a fixed 4x judges the machine's moment as much as the page. Each run is therefore
// calibrated: the page is loaded once (gather mode), the benchmarkIndex Lighthouse measured at the
// start of that load picks the slowdown from the curve of Lighthouse's CPU throttling calculator
// (github.com/patrickhulce/lighthouse-cpu-throttling-calculator: 150 is 1x, 800 is 2x, 1300 is 3x,
// each 233 more one more), at most the default, and the same load is then audited with it (audit mode;
// simulated throttling applies the slowdown to the recorded trace, so nothing is loaded twice).
const DEFAULT_CPU_SLOWDOWN = 4;
function calibratedCpuSlowdown(benchmarkIndex) {
  let slowdown = 1;
  if (benchmarkIndex >= 1300) slowdown = 3 + (benchmarkIndex - 1300) / 233;
  else if (benchmarkIndex >= 800) slowdown = 2 + (benchmarkIndex - 800) / 500;
  else if (benchmarkIndex >= 150) slowdown = 1 + (benchmarkIndex - 150) / 650;
  return Math.min(DEFAULT_CPU_SLOWDOWN, Math.round(slowdown * 10) / 10);
}

// One Lighthouse run in a chromium of its own (nothing cached or stored from another run); the
// mobile preset's CPU slowdown calibrated to the host as above (the desktop preset has none).
async function lighthouseRun(url, preset) {
  const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'puzzled-lighthouse-'));
  const flags = {output: 'json', logLevel: 'error', onlyCategories: CATEGORIES};
  const chrome = await chromeLauncher.launch({chromePath: CHROME, chromeFlags: CHROME_FLAGS});
  try {
    await lighthouse(url, {...flags, port: chrome.port, gatherMode: artifacts}, PRESETS[preset]);
  } finally {
    await chrome.kill();
  }
  try {
    const saved = path.join(artifacts, 'artifacts.json');
    const gathered = JSON.parse(fs.readFileSync(saved, 'utf8'));
    const throttling = {...gathered.settings.throttling};
    if (preset === 'mobile') throttling.cpuSlowdownMultiplier = calibratedCpuSlowdown(gathered.BenchmarkIndex);
    gathered.settings.throttling = throttling;
    fs.writeFileSync(saved, JSON.stringify(gathered));
    const result = await lighthouse(url, {...flags, auditMode: artifacts},
      {...(PRESETS[preset] ?? {extends: 'lighthouse:default'}), settings: {...PRESETS[preset]?.settings, throttling}});
    if (result.lhr.runtimeError) throw new Error(`${url} ${preset}: ${result.lhr.runtimeError.message}`);
    return result;
  } finally {
    fs.rmSync(artifacts, {recursive: true, force: true});
  }
}

const scoreOf = (lhr, category) => lhr.categories[category].score;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const shown = (value, unit) => unit === 'ms' ? `${Math.round(value)} ms` : value.toFixed(3);

// The shortfalls of the run with the best performance score among `runs` (sorted here, best first).
function shortfallsOf(page, preset, runs) {
  runs.sort((a, b) => scoreOf(b.lhr, 'performance') - scoreOf(a.lhr, 'performance'));
  const chosen = runs[0].lhr;
  const shortfalls = [];
  const minimum = config.minimum_scores[page.kind];
  for (const category of CATEGORIES) {
    if (scoreOf(chosen, category) >= minimum[category]) continue;
    const failing = chosen.categories[category].auditRefs
      .filter((ref) => ref.weight > 0 && chosen.audits[ref.id].score !== null && chosen.audits[ref.id].score < 1)
      .map((ref) => `${ref.id} ${chosen.audits[ref.id].displayValue ?? chosen.audits[ref.id].score}`);
    shortfalls.push(`${preset} ${category} ${scoreOf(chosen, category).toFixed(2)} < ${minimum[category]} (${failing.join(', ')})`);
  }
  const shift = median(runs.map((r) => r.lhr.audits['cumulative-layout-shift'].numericValue));
  if (shift >= config.max_layout_shift) shortfalls.push(`${preset} layout shift ${shift.toFixed(3)} >= ${config.max_layout_shift}`);
  return shortfalls;
}

// The page's shortfalls under one preset, printed with the figures of every run. Simulated
// throttling computes the metrics from the main-thread tasks of one unthrottled load, and a busy
// machine can only lengthen those tasks: a run measures the page at most as fast as it is, never
// faster. So the first run that meets everything stands; otherwise runs are added one at a time,
// up to `RUNS`, and the best run decides. A run Lighthouse itself could not finish (a DevTools
// protocol call timed out on the starved machine) is printed and counts towards `RUNS`; when none
// finishes, the page fails.
async function auditWithLighthouse(page, base, preset) {
  const runs = [];
  let shortfalls = [], attempts = 0;
  do {
    attempts++;
    try {
      runs.push(await lighthouseRun(base + page.path, preset));
    } catch (error) {
      console.log(`${page.path} ${preset}: run ${attempts} did not finish: ${error.message.split('\n')[0]}`);
    }
    shortfalls = runs.length > 0 ? shortfallsOf(page, preset, runs) : [`${preset}: no Lighthouse run finished`];
  } while (shortfalls.length > 0 && attempts < RUNS);
  if (runs.length === 0) return shortfalls;
  const chosen = runs[0];
  const slug = page.path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'root';
  fs.writeFileSync(path.join(reports, `${slug}-${preset}.json`), chosen.report);

  const scores = CATEGORIES.map((c) => `${c} ${scoreOf(chosen.lhr, c).toFixed(2)}`).join(', ');
  console.log(`${page.path} ${preset}: ${scores} (performance of each run: ${runs.map((r) => scoreOf(r.lhr, 'performance').toFixed(2)).join(' ')};` +
    ` benchmarkIndex and CPU slowdown of each run: ${runs.map((r) => `${Math.round(r.lhr.environment.benchmarkIndex)} ${r.lhr.configSettings.throttling.cpuSlowdownMultiplier}x`).join(' / ')})`);
  for (const [id, label, unit] of METRICS) {
    const values = runs.map((r) => r.lhr.audits[id].numericValue);
    console.log(`    ${label.padEnd(4)} median ${shown(median(values), unit)}, runs ${values.map((v) => shown(v, unit)).join(' / ')}`);
  }
  return shortfalls;
}

const isView = (page) => page.path.includes('#');
const presetsOf = (page) => Object.keys(PRESETS).filter((preset) => preset === 'mobile' || !isView(page));

// Every layout shift since the navigation without a recent input, summed (buffered entries, and any
// the observer has not delivered yet after a short wait).
function layoutShift() {
  return new Promise((resolve) => {
    let total = 0;
    const add = (entries) => { for (const entry of entries) if (!entry.hadRecentInput) total += entry.value; };
    const observer = new PerformanceObserver((list) => add(list.getEntries()));
    observer.observe({type: 'layout-shift', buffered: true});
    setTimeout(() => { add(observer.takeRecords()); observer.disconnect(); resolve(total); }, 500);
  });
}

// axe-core's violations on the page in each view; for a view without the desktop preset, its layout
// shift in the desktop views.
async function auditWithAxe(browser, page, base) {
  const shortfalls = [];
  for (const view of AXE_VIEWS) {
    const context = await browser.newContext({viewport: view.viewport, colorScheme: view.colorScheme});
    const tab = await context.newPage();
    await tab.goto(base + page.path, {waitUntil: 'networkidle'});
    if (isView(page) && view.name.startsWith('desktop')) {
      const shift = await tab.evaluate(layoutShift);
      console.log(`${page.path} ${view.name}: layout shift ${shift.toFixed(3)} (summed, without the desktop preset)`);
      if (shift >= config.max_layout_shift) shortfalls.push(`${view.name} layout shift ${shift.toFixed(3)} >= ${config.max_layout_shift}`);
    }
    await tab.evaluate(axeSource);
    const result = await tab.evaluate(() => window.axe.run(document, {resultTypes: ['violations']}));
    const nodes = result.violations.reduce((sum, v) => sum + v.nodes.length, 0);
    console.log(`${page.path} axe-core ${result.testEngine.version}, ${view.name}: ${result.violations.length} violations` +
      ` (${nodes} elements), ${result.passes.length} rules passed, ${result.incomplete.length} for a person to review`);
    for (const violation of result.violations) {
      const where = violation.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ');
      shortfalls.push(`axe ${view.name}: ${violation.id} (${violation.impact}) on ${violation.nodes.length} elements, e.g. ${where}`);
    }
    await context.close();
  }
  return shortfalls;
}

async function main() {
  fs.mkdirSync(reports, {recursive: true});
  const only = new RegExp(process.env.PAGES ?? '');
  const pages = config.pages.filter((p) => only.test(p.path));
  const server = await startPuzzled();
  const browser = await chromium.launch({executablePath: CHROME, args: ['--no-sandbox']});
  let failed = 0;
  try {
    for (const page of pages) {
      const shortfalls = [];
      for (const preset of presetsOf(page)) shortfalls.push(...await auditWithLighthouse(page, server.base, preset));
      shortfalls.push(...await auditWithAxe(browser, page, server.base));
      if (page.pending && shortfalls.length > 0) {
        console.log(`PENDING ${page.path} (${page.pending}):\n    ${shortfalls.join('\n    ')}`);
      } else if (page.pending) {
        failed++;
        console.log(`FAIL  ${page.path} meets every threshold now: remove its pending mark in tests/pages/pages.json`);
      } else if (shortfalls.length > 0) {
        failed++;
        console.log(`FAIL  ${page.path}:\n    ${shortfalls.join('\n    ')}`);
      } else {
        console.log(`ok    ${page.path}`);
      }
    }
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
  }
  console.log(`pages: ${pages.length - failed} of ${pages.length} pages passed (up to ${RUNS} Lighthouse runs per preset); reports in ${reports}`);
  return failed === 0;
}

main().then((ok) => process.exit(ok ? 0 : 1), (error) => { console.error(error); process.exit(1); });
