'use strict';
// The requests the contract test sends: every example request in openapi.yaml, the probes every path
// gets (a CORS preflight, a method it does not take, an oversized body), an unknown path, and the
// cases of cases.yaml. Each is { label, request, expect }, with request as server.js's send() takes
// it and expect holding { status, code, field } or { success: true }.

const PROBE_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

// A JSON object of fields as GET query pairs: arrays comma-separated, everything else as text.
function queryPairs(fields) {
  return Object.entries(fields).map(([name, value]) => [
    name,
    Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(',')
      : typeof value === 'string' ? value : JSON.stringify(value),
  ]);
}

function jsonRequest(method, path, body, headers = {}) {
  return { method, path, query: [], headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

// Request-body examples (`example`, `examples`) and query-parameter examples: the parameters'
// `example` values together make one request, and each name under their `examples` makes another.
function exampleRequests(spec) {
  const out = [];
  for (const op of spec.operations()) {
    const body = spec.requestBody(op);
    if (body) {
      const media = spec.at(body.mediaPointer);
      if (media.example !== undefined) {
        out.push({ label: `example ${op.key} body`, request: jsonRequest(op.method, op.path, media.example), expect: { success: true } });
      }
      for (const name of Object.keys(media.examples || {})) {
        const { node } = spec.resolve(`${body.mediaPointer}/examples/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
        out.push({ label: `example ${op.key} body '${name}'`, request: jsonRequest(op.method, op.path, node.value), expect: { success: true } });
      }
    }
    const groups = new Map();
    for (const [name, p] of Object.entries(spec.queryParameters(op))) {
      if (p.node.example !== undefined) groups.set('', { ...(groups.get('') || {}), [name]: p.node.example });
      for (const [exampleName, example] of Object.entries(p.node.examples || {})) {
        const value = example.$ref ? spec.resolve(example.$ref.slice(1)).node.value : example.value;
        groups.set(exampleName, { ...(groups.get(exampleName) || {}), [name]: value });
      }
    }
    for (const [name, fields] of groups) {
      out.push({
        label: `example ${op.key} query${name ? ` '${name}'` : ''}`,
        request: { method: op.method, path: op.path, query: queryPairs(fields), headers: {}, body: null },
        expect: { success: true },
      });
    }
  }
  return out;
}

// What every path and the server as a whole must answer, whatever the endpoint.
function probeRequests(spec, maxBody) {
  const out = [{
    label: 'probe GET /no-such-endpoint',
    request: { method: 'GET', path: '/no-such-endpoint', query: [], headers: {}, body: null },
    expect: { status: 404, code: 'not_found' },
  }];
  const oversized = JSON.stringify({ padding: 'x'.repeat(maxBody) });
  for (const path of spec.paths()) {
    const methods = spec.methodsOf(path);
    out.push({
      label: `probe OPTIONS ${path} (preflight)`,
      request: {
        method: 'OPTIONS', path, query: [], body: null,
        headers: { Origin: 'http://client.example', 'Access-Control-Request-Method': methods[0], 'Access-Control-Request-Headers': 'content-type' },
      },
      expect: { status: 204 },
    });
    const refused = PROBE_METHODS.find((m) => !methods.includes(m));
    out.push({
      label: `probe ${refused} ${path} (a method it does not take)`,
      request: { method: refused, path, query: [], headers: {}, body: null },
      expect: { status: 405, code: 'method_not_allowed' },
    });
    for (const op of spec.operations().filter((o) => o.path === path && spec.requestBody(o))) {
      const request = { method: op.method, path, query: [], headers: { 'Content-Type': 'application/json' }, body: oversized };
      out.push({
        label: `probe ${op.key} (body over --max-body, announced by Content-Length)`,
        request: { ...request, expectContinue: true },
        expect: { status: 413, code: 'payload_too_large' },
      });
      out.push({
        label: `probe ${op.key} (body over --max-body, chunked)`,
        request: { ...request, chunked: true },
        expect: { status: 413, code: 'payload_too_large' },
      });
    }
  }
  return out;
}

// One case of cases.yaml as requests. `params` go both ways (GET query and POST body) unless
// `method` picks one; `query` (an object, or a raw query string), `body` (JSON) and `raw_body`
// (text) are sent as they are.
function caseRequests(path, c) {
  const methods = c.method ? [c.method] : c.params !== undefined ? ['GET', 'POST'] : ['GET'];
  return methods.map((method) => {
    let query = [];
    if (typeof c.query === 'string') query = [...new URLSearchParams(c.query)];
    else if (c.query) query = queryPairs(c.query);
    let body = null;
    if (c.params !== undefined && method === 'GET') query = [...query, ...queryPairs(c.params)];
    else if (c.params !== undefined) body = JSON.stringify(c.params);
    if (c.body !== undefined) body = JSON.stringify(c.body);
    if (c.raw_body !== undefined) body = c.raw_body;
    const headers = { ...(body !== null ? { 'Content-Type': 'application/json' } : {}), ...(c.headers || {}) };
    return {
      label: `case ${method} ${path}: ${c.name}`,
      request: { method, path, query, headers, body },
      expect: { status: c.status, code: c.code, field: c.field },
    };
  });
}

module.exports = { exampleRequests, probeRequests, caseRequests };
