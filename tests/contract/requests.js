'use strict';
// The requests the contract test sends: every example request in openapi.yaml, the probes every path
// gets (a CORS preflight, a method it does not take, an oversized body, an Accept that excludes every
// media type it answers with), an unknown path, and the
// cases of cases.yaml. Each is { label, request, expect }, with request as server.js's send() takes
// it and expect holding { status, code, field } or { success: true }.

const { escapePointer } = require('./spec');

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

// True when a JSON object of fields can travel as query parameters unchanged: scalars, and arrays
// of scalars with no comma inside.
function queryable(fields) {
  const scalar = (v) => v === null || ['number', 'boolean'].includes(typeof v) || (typeof v === 'string' && !v.includes(','));
  return fields !== null && typeof fields === 'object' && !Array.isArray(fields) &&
    Object.values(fields).every((v) => (Array.isArray(v) ? v.length > 0 && v.every(scalar) : scalar(v) && v !== null));
}

// The example requests of the spec. A request-body example (`example`, or each of `examples`) is
// sent as a POST body and, when the path also takes GET and the fields fit in a query string, as
// GET query parameters. Query parameters' named `examples` make GET requests: all parameters'
// examples of one name together. (A parameter's single `example` illustrates that parameter alone;
// the linter checks it against its schema.)
function exampleRequests(spec) {
  const out = [];
  for (const op of spec.operations()) {
    const body = spec.requestBody(op);
    if (body) {
      const media = spec.at(body.mediaPointer);
      const examples = [];
      if (media.example !== undefined) examples.push(['', media.example]);
      for (const name of Object.keys(media.examples || {})) {
        examples.push([` '${name}'`, spec.resolve(`${body.mediaPointer}/examples/${escapePointer(name)}`).node.value]);
      }
      const get = spec.operation(op.path, 'GET');
      for (const [name, value] of examples) {
        out.push({ label: `example ${op.key} body${name}`, request: jsonRequest(op.method, op.path, value), expect: { success: true } });
        if (get && queryable(value)) {
          out.push({
            label: `example ${op.key} body${name}, sent as GET ${op.path} query`,
            request: { method: 'GET', path: op.path, query: queryPairs(value), headers: {}, body: null },
            expect: { success: true },
          });
        }
      }
    }
    const groups = new Map();
    for (const [name, p] of Object.entries(spec.queryParameters(op))) {
      for (const [exampleName, example] of Object.entries(p.node.examples || {})) {
        const value = example.$ref ? spec.resolve(example.$ref.slice(1)).node.value : example.value;
        groups.set(exampleName, { ...(groups.get(exampleName) || {}), [name]: value });
      }
    }
    for (const [name, fields] of groups) {
      out.push({
        label: `example ${op.key} query '${name}'`,
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
        headers: {
          Origin: 'http://client.example',
          'Access-Control-Request-Method': methods[0],
          'Access-Control-Request-Headers': 'content-type',
        },
      },
      expect: { status: 204 },
    });
    const refused = PROBE_METHODS.find((m) => !methods.includes(m));
    out.push({
      label: `probe ${refused} ${path} (a method it does not take)`,
      request: { method: refused, path, query: [], headers: {}, body: null },
      expect: { status: 405, code: 'method_not_allowed' },
    });
    // The 406 names the path's media types: the 2xx media types its operations document.
    const available = [...new Set(spec.operations().filter((o) => o.path === path).flatMap((o) =>
      Object.entries(spec.responses(o)).filter(([key]) => key.startsWith('2'))
        .flatMap(([, pointer]) => Object.keys(spec.describe(pointer).media))))].sort();
    for (const op of spec.operations().filter((o) => o.path === path && o.method !== 'OPTIONS')) {
      out.push({
        label: `probe ${op.key} (an Accept that excludes every media type it answers with)`,
        request: op.method === 'POST' ? { method: 'POST', path, query: [], headers: { Accept: 'application/xml', 'Content-Type': 'application/json' }, body: '{}' }
          : { method: op.method, path, query: [], headers: { Accept: 'application/xml' }, body: null },
        expect: { status: 406, code: 'not_acceptable', available },
      });
    }
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

// A case's value with every {$repeat: TEXT or [ITEMS], times: N} replaced by TEXT repeated N times,
// or an array of ITEMS repeated N times (for requests too large to write out).
function expand(value) {
  if (Array.isArray(value)) return value.map(expand);
  if (value === null || typeof value !== 'object') return value;
  if (typeof value.$repeat === 'string') return value.$repeat.repeat(value.times);
  if (Array.isArray(value.$repeat)) return Array(value.times).fill(expand(value.$repeat)).flat();
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
}

// One case of cases.yaml as requests. `params` go both ways (GET query and POST body) unless
// `method` picks one; `query` (an object, or a raw query string), `body` (JSON) and `raw_body`
// (text) are sent as they are.
function caseRequests(path, given) {
  const c = expand(given);
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
      expect: { status: c.status, code: c.code, field: c.field, type: c.type },
    };
  });
}

module.exports = { exampleRequests, probeRequests, caseRequests };
