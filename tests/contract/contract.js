'use strict';
// The live contract test: lints openapi.yaml, starts puzzled, sends every example request of the
// spec, the probes every path gets and the cases of cases.yaml, judges every response against the
// spec (and its error codes against api/errors.h, error_codes.js), then requires every status, error code, media type, header and request field the spec
// documents to have been observed. Usage: node contract.js PUZZLED_BIN PUZZLED_ALLOC_FAIL_BIN [SPEC]
// (or node contract.js --static: the lint and the error codes alone, no server):
// the second binary is the allocation-failure build (-DPUZZLED_ALLOC_FAIL=ON), which cases.yaml's
// servers with `build: alloc-fail` run so the 500 out_of_memory answers are observed; SPEC defaults
// to the repository's openapi.yaml (selftest.js passes broken copies).
const path = require('path');
const { spawnSync } = require('child_process');
const fs = require('fs');
const YAML = require('yaml');
const { Spec } = require('./spec');
const { startServer, send } = require('./server');
const { exampleRequests, probeRequests, caseRequests } = require('./requests');
const { errorCodeProblems } = require('./error_codes');

const HERE = __dirname;
const SPEC_FILE = path.resolve(process.argv[4] || path.join(HERE, '..', '..', 'openapi.yaml'));
const CASES_FILE = path.join(HERE, 'cases.yaml');
const ERROR_TABLE = path.join(HERE, '..', '..', 'api', 'errors.h');
const MAX_BODY = 16384; // small, so the 413 probes stay cheap; every case body fits
const UNKNOWN_PATH = 'unknown path';
const WRONG_METHOD = 'method not allowed';

let passed = 0;
let failed = 0;
let skipped = 0;

function check(label, problems) {
  if (problems.length === 0) {
    passed++;
    return;
  }
  failed++;
  console.log(`FAIL ${label}`);
  problems.forEach((p) => console.log(`     ${p}`));
}

function lint() {
  const redocly = path.join(HERE, 'node_modules', '.bin', 'redocly');
  const result = spawnSync(redocly, ['lint', '--config', 'redocly.yaml', '--format', 'stylish', path.relative(HERE, SPEC_FILE)], {
    cwd: HERE,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const output = `${result.stdout || ''}${result.stderr || ''}`;
  const report = output.split('\n').filter((line) => !/[║╔╚]/.test(line)).join('\n').trim(); // no Node banner
  check('redocly lint openapi.yaml', result.status === 0 ? [] : [result.error ? result.error.message : report]);
  const warnings = /You have (\d+) warnings?/.exec(output);
  if (result.status === 0 && warnings) {
    console.log(`lint: ${warnings[1]} warning(s) (tests/contract/node_modules/.bin/redocly lint shows them)`);
  }
}

// What was observed, as strings such as "GET /queens 200 application/x-ndjson".
const observed = new Set();

// Which documented answer a request meets: an operation's response for the status, or the answer to
// an unknown path or a method the path does not take. Returns { subject, statusKey, responsePointer,
// problems }; responsePointer is null when the status itself is wrong.
function documentedAnswer(spec, request, status, body) {
  const op = spec.operation(request.path, request.method);
  if (op) {
    const statusKey = spec.responseKey(op, status);
    if (statusKey) return { subject: op.key, statusKey, responsePointer: spec.responses(op)[statusKey], problems: [] };
    const documented = Object.keys(spec.responses(op)).join(', ');
    const problem = `status ${status} is not documented for ${op.key} (documented: ${documented}): ${body.slice(0, 200)}`;
    return { subject: op.key, statusKey, responsePointer: null, problems: [problem] };
  }
  const [subject, statusKey, name] = spec.paths().includes(request.path)
    ? [WRONG_METHOD, '405', 'method-not-allowed'] : [UNKNOWN_PATH, '404', 'unknown-path'];
  if (String(status) === statusKey) return { subject, statusKey, responsePointer: spec.unroutedResponse(name), problems: [] };
  const problem = `${request.method} ${request.path} answered ${status}; openapi.yaml says ${statusKey} (${subject})`;
  return { subject, statusKey, responsePointer: null, problems: [problem] };
}

// Checks a response against its documented answer and records what it showed.
function checkAnswer(spec, answer, response) {
  const { subject, statusKey, responsePointer } = answer;
  const result = spec.responseProblems(responsePointer, response);
  const problems = [...result.problems];
  const schema = result.mediaType && spec.describe(responsePointer).media[result.mediaType];
  const codes = schema ? spec.valuesAt(schema, ['error', 'code']) : null;
  if (result.code !== null && codes && !codes.has(result.code)) {
    problems.push(`error code ${result.code} is not documented for ${subject} ${statusKey} (documented: ${[...codes].join(', ')})`);
  }
  observed.add(`${subject} ${statusKey}`);
  if (result.mediaType) observed.add(`${subject} ${statusKey} ${result.mediaType}`);
  if (result.code !== null) observed.add(`${subject} ${statusKey} code ${result.code}`);
  Object.keys(response.headers).forEach((h) => observed.add(`${subject} ${statusKey} header ${h}`));
  return problems;
}

// The request side: what the spec allows must be what the server accepts; records the fields a
// successful request carried.
function checkRequest(spec, op, request, status, error) {
  const problems = [];
  const outside = spec.requestProblems(op, request);
  if (outside.length && (status < 400 || status >= 500)) {
    problems.push(`answered ${status} to a request openapi.yaml does not allow: ${outside.join('; ')}`);
  }
  if (status === 400 && error.code === 'unknown_field' && spec.documentedFields(op).has(error.field)) {
    problems.push(`the server rejects field '${error.field}' as unknown, but openapi.yaml documents it for ${op.key}`);
  }
  if (status >= 200 && status < 300) {
    const names = request.query.map(([name]) => name);
    try {
      const sent = request.body ? JSON.parse(request.body) : null;
      if (sent && typeof sent === 'object' && !Array.isArray(sent)) names.push(...Object.keys(sent));
    } catch (e) { /* a raw body that is not JSON carries no fields */ }
    names.forEach((name) => observed.add(`${op.key} field ${name}`));
  }
  return problems;
}

// What the case itself expects.
function checkExpectation(expect, status, error, body, contentType) {
  const problems = [];
  const type = (contentType || '').split(';')[0].trim().toLowerCase();
  if (expect.type !== undefined && type !== expect.type) problems.push(`expected the media type ${expect.type}, got ${contentType}`);
  if (expect.success && (status < 200 || status >= 300)) problems.push(`expected a 2xx answer, got ${status}: ${body.slice(0, 200)}`);
  if (expect.status !== undefined && status !== expect.status) {
    problems.push(`expected status ${expect.status}, got ${status}: ${body.slice(0, 200)}`);
  }
  if (expect.code !== undefined && error.code !== expect.code) problems.push(`expected error code ${expect.code}, got ${error.code}`);
  if (expect.field !== undefined && error.field !== expect.field) problems.push(`expected error field ${expect.field}, got ${error.field}`);
  const available = error.details && Array.isArray(error.details.available) ? [...error.details.available].sort() : null;
  if (expect.available !== undefined && JSON.stringify(available) !== JSON.stringify(expect.available)) {
    problems.push(`expected details.available ${expect.available.join(', ')} (what openapi.yaml documents), got ${available}`);
  }
  return problems;
}

// Everything wrong with one exchange.
function judge(spec, { request, expect }, response) {
  if (response.error) return [`no answer: ${response.error}`];
  const { status } = response;
  const body = response.body.toString('utf8');
  let error = {};
  try {
    const parsed = JSON.parse(body);
    if (parsed && parsed.error && typeof parsed.error === 'object') error = parsed.error;
  } catch (e) { /* not JSON: the spec check says whether it should be */ }
  const answer = documentedAnswer(spec, request, status, body);
  const problems = [...answer.problems];
  if (answer.responsePointer) problems.push(...checkAnswer(spec, answer, response));
  if (response.headers.allow !== undefined) {
    const allowed = response.headers.allow.split(',').map((m) => m.trim()).sort().join(', ');
    const methods = spec.methodsOf(request.path);
    const documented = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].sort().join(', ');
    if (allowed !== documented) {
      problems.push(`Allow: ${response.headers.allow}, but openapi.yaml documents ${documented} for ${request.path}`);
    }
  }
  const op = spec.operation(request.path, request.method);
  if (op) problems.push(...checkRequest(spec, op, request, status, error));
  problems.push(...checkExpectation(expect, status, error, body, response.headers['content-type']));
  return problems;
}

// Sends one request and judges its answer. A request armed with X-Fail-Allocation to a server of the
// allocation-failure build is over only when that server reports its end: the next request is sent
// after that, since the countdown is one for the whole server (a request arriving on another I/O
// thread before the last one's end would be disarmed by that end, and answer 200).
async function exchange(spec, server, item) {
  const armed = server.failsAllocations &&
    Object.keys(item.request.headers).some((name) => name.toLowerCase() === 'x-fail-allocation');
  const before = server.reports();
  const response = await send(server.url, item.request);
  const problems = judge(spec, item, response);
  if (armed && !(await server.reported(before + 1))) problems.push('the server never reported the armed request\'s end');
  check(item.label, problems);
  if (item.request.method === 'GET' && !armed && !response.error) await exchangeHead(spec, server, item, response);
}

// Headers left out of the HEAD comparison: those that differ between two answers to the same request,
// and the framing of a stream, which HEAD's headers go out without (docs/architecture.md, HEAD).
const HEAD_UNCOMPARED = new Set(['date', 'x-request-id', 'ratelimit', 'connection', 'keep-alive', 'transfer-encoding']);

// The same request as HEAD, beside every GET (openapi.yaml: every path that takes GET takes HEAD,
// with GET's operation): the same status and headers as the GET's answer, which judge() held to the
// spec, and no body. Content-Length is compared when the answer is a pure function of the request
// (it has an ETag); a shuffle without a seed or /metrics has other bytes each time.
async function exchangeHead(spec, server, item, get) {
  const request = { ...item.request, method: 'HEAD' };
  const head = await send(server.url, request);
  if (head.error) {
    check(`${item.label}, as HEAD`, [`no answer: ${head.error}`]);
    return;
  }
  const problems = [];
  if (head.status !== get.status) problems.push(`HEAD answered ${head.status}, GET ${get.status}`);
  if (head.body.length !== 0) problems.push(`HEAD answered a body of ${head.body.length} bytes`);
  const names = (headers) => Object.keys(headers).filter((h) => !HEAD_UNCOMPARED.has(h)).sort();
  if (names(head.headers).join(', ') !== names(get.headers).join(', ')) {
    problems.push(`HEAD headers ${names(head.headers).join(', ')}; GET headers ${names(get.headers).join(', ')}`);
  }
  const compared = names(get.headers).filter((h) => h !== 'content-length' || get.headers.etag !== undefined);
  for (const h of compared) {
    if (head.status === get.status && head.headers[h] !== get.headers[h]) {
      problems.push(`${h}: HEAD ${head.headers[h]}, GET ${get.headers[h]}`);
    }
  }
  check(`${item.label}, as HEAD`, problems);
}

// What the spec documents for one subject (an operation, or an unrouted answer), as the strings
// judge() records when it observes them, plus the defects that make it uncheckable.
function documentedItems(spec, subject, responses, fields) {
  const items = [];
  const defects = [];
  for (const [statusKey, responsePointer] of Object.entries(responses)) {
    items.push(`${subject} ${statusKey}`);
    const { headers, media } = spec.describe(responsePointer);
    Object.keys(headers).forEach((h) => items.push(`${subject} ${statusKey} header ${h}`));
    for (const [type, schema] of Object.entries(media)) {
      items.push(`${subject} ${statusKey} ${type}`);
      if (Number(statusKey[0]) < 4 || type.endsWith('ndjson')) continue;
      const codes = spec.valuesAt(schema, ['error', 'code']);
      if (!codes) defects.push(`${subject} ${statusKey} ${type} does not list its error codes (narrow error.code with enum or const)`);
      else codes.forEach((code) => items.push(`${subject} ${statusKey} code ${code}`));
    }
  }
  fields.forEach((name) => items.push(`${subject} field ${name}`));
  return { items, defects };
}

// Every request body and response schema of every operation is closed (see Spec.openObjects).
function checkClosedSchemas(spec) {
  const schemas = [];
  for (const op of spec.operations()) {
    const body = spec.requestBody(op);
    if (body) schemas.push([`${op.key} request body`, body.pointer]);
    for (const [statusKey, responsePointer] of Object.entries(spec.responses(op))) {
      for (const [type, schema] of Object.entries(spec.describe(responsePointer).media)) {
        schemas.push([`${op.key} ${statusKey} ${type}`, schema]);
      }
    }
  }
  const open = new Map();
  for (const [where, pointer] of schemas) {
    for (const p of spec.openObjects(pointer)) open.set(p, open.get(p) || where);
  }
  check('every object schema says additionalProperties: false', [...open].map(([p, where]) => `#${p} (used by ${where})`));
}

// The reverse direction: everything documented was observed at least once, except what an
// operation's `x-untested` exempts ({"500": reason} for a whole status, {"503 deadline_exceeded":
// reason} for one error code), which is reported and counted as skipped.
function checkCoverage(spec) {
  const subjects = spec.operations().map((op) =>
    [op.key, spec.responses(op), spec.documentedFields(op), spec.at(op.pointer)['x-untested'] || {}]);
  subjects.push([UNKNOWN_PATH, { 404: spec.unroutedResponse('unknown-path') }, new Set(), {}]);
  subjects.push([WRONG_METHOD, { 405: spec.unroutedResponse('method-not-allowed') }, new Set(), {}]);
  for (const [subject, responses, fields, untested] of subjects) {
    const { items, defects } = documentedItems(spec, subject, responses, fields);
    const exemption = (item) => Object.keys(untested).find((key) => item === `${subject} ${key}` ||
      (!key.includes(' ') && item.startsWith(`${subject} ${key} `)));
    const missing = items.filter((item) => !observed.has(item));
    for (const key of Object.keys(untested)) {
      if (!items.includes(`${subject} ${key}`) && !items.includes(`${subject} ${key.replace(' ', ' code ')}`)) {
        defects.push(`x-untested names '${key}', which is not documented here`);
      }
    }
    for (const [key, reason] of Object.entries(untested)) {
      const exempted = missing.filter((item) => exemption(item.replace(' code ', ' ')) === key);
      if (exempted.length === 0) continue;
      skipped += exempted.length;
      console.log(`untested ${subject} ${key}: ${reason}`);
    }
    check(`coverage of ${subject}`, [
      ...defects,
      ...missing.filter((item) => !exemption(item.replace(' code ', ' '))).map((item) =>
        `documented but never observed: ${item.replace(`${subject} `, '')}${item.includes(' field ') ? ' (in a 2xx exchange)' : ''}`),
    ]);
  }
}

// The server's routes, from its 404 message ("... the endpoints are /a, /b").
function routesOf(response) {
  const m = /the endpoints are (.*)$/.exec(JSON.parse(response.body.toString('utf8')).error.message);
  return m ? m[1].split(',').map((s) => s.trim()) : null;
}

// The checks that need no server (the quick tier's spec stage): the lint, and the error codes.
function staticChecks() {
  lint();
  check('the error codes of openapi.yaml are those of api/errors.h, both ways', errorCodeProblems(new Spec(SPEC_FILE), ERROR_TABLE));
}

async function main() {
  if (process.argv[2] === '--static') {
    staticChecks();
    console.log(`spec: ${passed} passed, ${failed} failed`);
    process.exitCode = failed ? 1 : 0;
    return;
  }
  const [bin, allocFailBin] = process.argv.slice(2, 4);
  if (!bin || !allocFailBin) throw new Error('usage: node contract.js PUZZLED_BIN PUZZLED_ALLOC_FAIL_BIN [SPEC] | --static');
  const builds = { default: bin, 'alloc-fail': allocFailBin };
  staticChecks();
  const spec = new Spec(SPEC_FILE);
  const cases = YAML.parse(fs.readFileSync(CASES_FILE, 'utf8'));
  // Servers by name, as cases.yaml configures them, started when a case first needs one.
  const servers = new Map();
  const serverNamed = async (name) => {
    if (!servers.has(name)) {
      if (!cases.servers || !cases.servers[name]) throw new Error(`cases.yaml names server '${name}', which its servers list lacks`);
      // a list of flags, or {build, flags} for a server of another build than the default
      const entry = Array.isArray(cases.servers[name]) ? { flags: cases.servers[name] } : cases.servers[name];
      const binary = builds[entry.build || 'default'];
      if (!binary) throw new Error(`cases.yaml's server '${name}' names build '${entry.build}'; the builds are ${Object.keys(builds).join(', ')}`);
      const flags = ['--max-body', String(MAX_BODY), '--threads', '2', ...(entry.flags || []).map(String)];
      const started = await startServer(path.resolve(binary), flags);
      servers.set(name, { ...started, failsAllocations: entry.build === 'alloc-fail' });
    }
    return servers.get(name);
  };
  const server = await serverNamed('default');
  try {
    const served = await send(server.url, { method: 'GET', path: '/openapi.yaml', query: [], headers: {}, body: null });
    check('GET /openapi.yaml serves openapi.yaml byte for byte', served.error || served.body.toString('utf8') !== spec.text
      ? ['the served document differs from openapi.yaml (rebuild puzzled?)'] : []);

    for (const item of [...exampleRequests(spec), ...probeRequests(spec, MAX_BODY)]) await exchange(spec, server, item);

    const notFound = await send(server.url, { method: 'GET', path: '/no-such-endpoint', query: [], headers: {}, body: null });
    const routes = notFound.error ? null : routesOf(notFound);
    const sections = Object.keys(cases.endpoints);
    check('every route of the server is in openapi.yaml and has cases', routes === null
      ? ['cannot read the route list from the 404 message']
      : [
        ...spec.paths().filter((p) => !routes.includes(p)).map((p) => `openapi.yaml documents ${p}, which the server does not route`),
        ...routes.filter((r) => !sections.includes(r)).map((r) => `cases.yaml has no section for ${r}`),
      ]);

    for (const [endpoint, given] of Object.entries(cases.endpoints)) {
      const list = given || [];
      if (!spec.paths().includes(endpoint)) {
        const probe = await send(server.url, { method: 'GET', path: endpoint, query: [], headers: {}, body: null });
        check(`${endpoint} is described by openapi.yaml`,
          [`the server answers GET ${endpoint} with ${probe.status ?? probe.error}, but openapi.yaml has no such path`]);
        continue;
      }
      for (const c of list) {
        const caseServer = await serverNamed(c.server || 'default');
        for (const item of caseRequests(endpoint, c)) await exchange(spec, caseServer, item);
      }
    }
    checkCoverage(spec);
    checkClosedSchemas(spec);
  } finally {
    for (const [name, s] of servers) {
      const exit = await s.stop();
      check(`puzzled (server '${name}') stops cleanly on SIGTERM`,
        exit.code === 0 ? [] : [`exit ${exit.code ?? exit.signal}; its log ends with:\n${s.log().slice(-2000)}`]);
    }
  }
  console.log(`contract: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.log(`FAIL contract test could not run: ${e.stack || e.message}`);
  console.log(`contract: ${passed} passed, ${failed + 1} failed, ${skipped} skipped`);
  process.exitCode = 1;
});
