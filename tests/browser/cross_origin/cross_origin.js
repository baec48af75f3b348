// The calls of the cross-origin page (see index.html). Every endpoint is called with fetch: POST with
// Content-Type: application/json (a preflighted request) with the example of openapi.yaml, read from
// the service itself with its js-yaml; an NDJSON stream read with getReader(); the JSON body of a 4xx.
// And one URL fetched as NDJSON then as JSON through the browser's HTTP cache (cacheChecks).
// Returns what it saw; tests/browser/browser.js judges it.
'use strict';

function log(line) { document.getElementById('log').textContent += `${line}\n`; }

function loadScript(url) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${url}`));
    document.head.append(script);
  });
}

async function crossOriginChecks(service) {
  await loadScript(`${service}/vendor/js-yaml.js`);
  const spec = jsyaml.load(await (await fetch(`${service}/openapi.yaml`)).text());
  const calls = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    if (!item.post) continue;
    const content = item.post.requestBody.content['application/json'];
    const example = content.example ?? Object.values(content.examples ?? {})[0]?.value;
    const response = await fetch(`${service}${path}`, {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify(example)});
    const body = await response.text();
    let json = true;
    try { JSON.parse(body); } catch { json = false; }
    calls.push({path, status: response.status, json, requestId: response.headers.get('X-Request-Id')});
    log(`POST ${path}: ${response.status}`);
  }

  const stream = await fetch(`${service}/permutations`, {method: 'POST',
    headers: {'Content-Type': 'application/json', Accept: 'application/x-ndjson'}, body: JSON.stringify({items: [1, 2, 3, 4, 5]})});
  const reader = stream.body.getReader(), decoder = new TextDecoder();
  let text = '', reads = 0;
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    reads++;
    text += decoder.decode(value, {stream: true});
  }
  const lines = text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
  log(`NDJSON: ${lines.length} lines in ${reads} reads`);

  const bad = await fetch(`${service}/queens`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"n": 0}'});
  const error = await bad.json();
  log(`4xx: ${bad.status} ${error.error.code}`);

  return {origin: location.origin, calls, stream: {status: stream.status, type: stream.headers.get('Content-Type'), lines},
    error: {status: bad.status, body: error}};
}

// One cacheable URL (Cache-Control: public, max-age) fetched twice with Accept: application/x-ndjson,
// then twice plainly, each body read whole before the next fetch. X-Request-Id tells where an answer
// came from: the same id again is the browser's cache replaying the stored answer, a new id a fresh
// answer from the service.
async function cacheChecks(service) {
  const url = `${service}/permutations?text=abc`;
  const fetches = [];
  for (const accept of ['application/x-ndjson', 'application/x-ndjson', undefined, undefined]) {
    const response = await fetch(url, accept ? {headers: {Accept: accept}} : {});
    fetches.push({accept: accept ?? null, status: response.status, type: response.headers.get('Content-Type'),
      requestId: response.headers.get('X-Request-Id'), body: await response.text()});
    log(`GET /permutations?text=abc (Accept: ${accept ?? 'none'}): ${response.status} ${response.headers.get('Content-Type')}`);
  }
  return fetches;
}
