'use strict';
// What the garbage campaign (tests/garbage/run.py) needs from openapi.yaml, printed as JSON on
// stdout: the spec's example requests (the contract test's exampleRequests, the seeds to mutate), and
// for every operation its query parameters' schemas, its documented statuses with the error codes
// each allows, and the answers documented for any path (x-unrouted-responses). It reuses the contract
// test's reading of the spec (tests/contract/spec.js and its pinned node_modules) rather than a YAML
// parser of its own. Usage: node tests/garbage/spec.js [SPEC]
const path = require('path');
const { Spec } = require('../contract/spec');
const { exampleRequests } = require('../contract/requests');

const spec = new Spec(path.resolve(process.argv[2] || path.join(__dirname, '..', '..', 'openapi.yaml')));

// The error codes a response object allows in its JSON body: a list, or null when it narrows nothing
// (any code of the Error schema), or [] when it documents no JSON body.
function errorCodes(responsePointer) {
  const schema = spec.describe(responsePointer).media['application/json'];
  if (!schema) return [];
  const codes = spec.valuesAt(schema, ['error', 'code']);
  return codes ? [...codes] : null;
}

// A schema with local $refs followed (only as deep as the campaign looks: type, bounds, items).
function resolved(pointer) {
  const { node, pointer: here } = spec.resolve(pointer);
  const out = { ...node };
  if (node.items && typeof node.items === 'object') out.items = resolved(`${here}/items`);
  return out;
}

const operations = spec.operations().map((op) => {
  const responses = {};
  for (const [status, pointer] of Object.entries(spec.responses(op))) {
    const media = Object.keys(spec.describe(pointer).media);
    responses[status] = { media, codes: errorCodes(pointer) };
  }
  const query = {};
  for (const [name, p] of Object.entries(spec.queryParameters(op))) query[name] = resolved(p.pointer);
  const body = spec.requestBody(op);
  const fields = body ? [...spec.propertyNames(body.pointer)] : [];
  return { method: op.method, path: op.path, responses, query, fields, takesBody: Boolean(spec.at(op.pointer).requestBody) };
});

const unrouted = {};
for (const name of Object.keys(spec.doc['x-unrouted-responses'] || {})) {
  unrouted[name] = { codes: errorCodes(spec.unroutedResponse(name)) };
}

const examples = exampleRequests(spec).map(({ label, request }) => ({ label, ...request }));
process.stdout.write(JSON.stringify({ operations, unrouted, examples }));
