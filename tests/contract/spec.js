'use strict';
// openapi.yaml as the contract test reads it: operations, documented responses and their error codes,
// and the two checks that go through Ajv (JSON Schema 2020-12, the schema dialect of OpenAPI 3.1):
// is a request allowed by the spec, and does a response match the spec.
const fs = require('fs');
const YAML = require('yaml');
const Ajv2020 = require('ajv/dist/2020');
const addFormats = require('ajv-formats');

const SPEC_ID = 'openapi.yaml';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
// Headers that describe the transfer rather than the API; a response may carry them undocumented.
const TRANSFER_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'date', 'connection', 'keep-alive']);
const NDJSON = 'application/x-ndjson';
// Server-sent events (openapi.yaml's ProgressEventStream): progress events, then one result or error.
const EVENT_STREAM = 'text/event-stream';
const PROGRESS_DATA = '/components/schemas/ProgressData';
const ERROR_BODY = '/components/schemas/Error';

const escapePointer = (part) => String(part).replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (part) => part.replace(/~1/g, '/').replace(/~0/g, '~');
const isJsonMedia = (type) => type === 'application/json' || type.endsWith('+json');
const setsIntersect = (sets) => sets.reduce((a, b) => new Set([...a].filter((x) => b.has(x))));

// [{ name, data }] of a text/event-stream body, read as EventSource reads it: comment lines skipped,
// data lines joined with a newline, an event dispatched at each blank line.
function parseEvents(body) {
  const events = [];
  let name = 'message';
  let data = [];
  for (const line of body.split('\n')) {
    if (line === '') {
      if (data.length) events.push({ name, data: data.join('\n') });
      name = 'message';
      data = [];
    } else if (!line.startsWith(':')) {
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
    }
  }
  return events;
}

class Spec {
  constructor(file) {
    this.text = fs.readFileSync(file, 'utf8');
    this.doc = YAML.parse(this.text);
    // strict: false lets OpenAPI's own schema keywords (example, discriminator ...) through.
    this.ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(this.ajv);
    this.ajv.addSchema(this.doc, SPEC_ID);
    this.compiled = new Map();
  }

  at(pointer) {
    let node = this.doc;
    for (const part of pointer.split('/').slice(1)) {
      if (node === undefined || node === null) break;
      node = node[unescapePointer(part)];
    }
    if (node === undefined) throw new Error(`openapi.yaml has nothing at #${pointer}`);
    return node;
  }

  // Follows local $refs; returns the node and the pointer where it really lives.
  resolve(pointer) {
    let node = this.at(pointer);
    const seen = new Set();
    while (node && typeof node === 'object' && typeof node.$ref === 'string') {
      if (!node.$ref.startsWith('#/')) throw new Error(`only local $refs are supported, found ${node.$ref}`);
      if (seen.has(node.$ref)) throw new Error(`$ref loop at ${node.$ref}`);
      seen.add(node.$ref);
      pointer = node.$ref.slice(1);
      node = this.at(pointer);
    }
    return { node, pointer };
  }

  // Validates `value` against the schema at `pointer`; returns an error text or null.
  schemaErrors(pointer, value) {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${SPEC_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
      this.compiled.set(pointer, validate);
    }
    if (validate(value)) return null;
    return validate.errors.map((e) => {
      const extra = e.params && (e.params.additionalProperty || e.params.unevaluatedProperty || e.params.missingProperty);
      const allowed = e.params && e.params.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : '';
      return `value${e.instancePath} ${e.message}${extra ? ` '${extra}'` : ''}${allowed}`;
    }).join('; ');
  }

  paths() {
    return Object.keys(this.doc.paths || {});
  }

  methodsOf(path) {
    const item = this.doc.paths[path];
    return HTTP_METHODS.filter((m) => item && item[m]).map((m) => m.toUpperCase());
  }

  // Every operation: { key: 'GET /queens', path, method, pointer }.
  operations() {
    return this.paths().flatMap((path) =>
      this.methodsOf(path).map((method) => ({
        key: `${method} ${path}`,
        path,
        method,
        pointer: `/paths/${escapePointer(path)}/${method.toLowerCase()}`,
      })));
  }

  operation(path, method) {
    return this.operations().find((op) => op.path === path && op.method === method) || null;
  }

  // The response objects of an operation by status key ('200', '4XX', 'default'), resolved.
  responses(op) {
    const out = {};
    for (const key of Object.keys(this.at(op.pointer).responses || {})) {
      out[key] = this.resolve(`${op.pointer}/responses/${escapePointer(key)}`).pointer;
    }
    return out;
  }

  // The status key documenting `status` for an operation, or null.
  responseKey(op, status) {
    const keys = Object.keys(this.responses(op));
    const s = String(status);
    return keys.find((k) => k === s) || keys.find((k) => k.toUpperCase() === `${s[0]}XX`) ||
      (keys.includes('default') ? 'default' : null);
  }

  // The answer to a request that matches no operation: x-unrouted-responses/<name>.
  unroutedResponse(name) {
    return this.resolve(`/x-unrouted-responses/${escapePointer(name)}`).pointer;
  }

  // What a response object documents: { headers: {lowercase name: {pointer, required}}, media: {type: pointer} }.
  describe(responsePointer) {
    const response = this.at(responsePointer);
    const headers = {};
    for (const name of Object.keys(response.headers || {})) {
      const { node, pointer } = this.resolve(`${responsePointer}/headers/${escapePointer(name)}`);
      headers[name.toLowerCase()] = { name, pointer, required: node.required === true };
    }
    const media = {};
    for (const type of Object.keys(response.content || {})) {
      media[type.toLowerCase()] = `${responsePointer}/content/${escapePointer(type)}/schema`;
    }
    return { headers, media };
  }

  // The set of values a schema allows at a property path (['error', 'code']), following $ref,
  // allOf (intersection), anyOf/oneOf (union), enum and const; null when nothing narrows it.
  valuesAt(pointer, propertyPath) {
    const { node, pointer: here } = this.resolve(pointer);
    if (!node || typeof node !== 'object') return null;
    const found = [];
    if (propertyPath.length === 0) {
      if (Array.isArray(node.enum)) found.push(new Set(node.enum));
      if (node.const !== undefined) found.push(new Set([node.const]));
    } else if (node.properties && node.properties[propertyPath[0]] !== undefined) {
      const inner = this.valuesAt(`${here}/properties/${escapePointer(propertyPath[0])}`, propertyPath.slice(1));
      if (inner) found.push(inner);
    }
    (node.allOf || []).forEach((_, i) => {
      const inner = this.valuesAt(`${here}/allOf/${i}`, propertyPath);
      if (inner) found.push(inner);
    });
    for (const keyword of ['anyOf', 'oneOf']) {
      if (!Array.isArray(node[keyword])) continue;
      const branches = node[keyword].map((_, i) => this.valuesAt(`${here}/${keyword}/${i}`, propertyPath));
      if (branches.every(Boolean)) found.push(new Set(branches.flatMap((b) => [...b])));
    }
    return found.length ? setsIntersect(found) : null;
  }

  // Object schemas that let undocumented properties through: every schema with `properties` must
  // say additionalProperties: false (or unevaluatedProperties: false), since puzzled rejects unknown
  // request fields and its answers must carry only documented ones. The branches of an allOf that
  // holds a closed schema only narrow it, and are exempt.
  openObjects(pointer, exempt = false, seen = new Set()) {
    const { node, pointer: here } = this.resolve(pointer);
    if (!node || typeof node !== 'object' || seen.has(`${here} ${exempt}`)) return [];
    seen.add(`${here} ${exempt}`);
    const closed = (n) => n.additionalProperties === false || n.unevaluatedProperties === false;
    const found = node.properties && !exempt && !closed(node) ? [here] : [];
    // a branch that is itself an allOf holding a closed schema (an endpoint's narrowing of Error) closes it too
    const closedAt = (p) => {
      const { node: n, pointer: at } = this.resolve(p);
      return !!n && (closed(n) || (Array.isArray(n.allOf) && n.allOf.some((_, i) => closedAt(`${at}/allOf/${i}`))));
    };
    const children = [];
    for (const name of Object.keys(node.properties || {})) children.push([`${here}/properties/${escapePointer(name)}`, exempt]);
    for (const keyword of ['items', 'additionalProperties', 'not']) {
      if (node[keyword] && typeof node[keyword] === 'object') children.push([`${here}/${keyword}`, exempt]);
    }
    (node.prefixItems || []).forEach((_, i) => children.push([`${here}/prefixItems/${i}`, exempt]));
    for (const keyword of ['anyOf', 'oneOf']) (node[keyword] || []).forEach((_, i) => children.push([`${here}/${keyword}/${i}`, exempt]));
    if (Array.isArray(node.allOf)) {
      const closedBranch = node.allOf.some((_, i) => closedAt(`${here}/allOf/${i}`));
      node.allOf.forEach((_, i) => {
        children.push([`${here}/allOf/${i}`, exempt || (closedBranch && !closedAt(`${here}/allOf/${i}`))]);
      });
    }
    return [...found, ...children.flatMap(([p, e]) => this.openObjects(p, e, seen))];
  }

  // The top-level property names a schema documents (through $ref, allOf, anyOf, oneOf).
  propertyNames(pointer) {
    const { node, pointer: here } = this.resolve(pointer);
    const names = new Set(Object.keys((node && node.properties) || {}));
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
      (node[keyword] || []).forEach((_, i) => this.propertyNames(`${here}/${keyword}/${i}`).forEach((n) => names.add(n)));
    }
    return names;
  }

  // Query parameters of an operation: {name: {pointer (of the schema), required}}.
  queryParameters(op) {
    const out = {};
    const pathPointer = `/paths/${escapePointer(op.path)}`;
    for (const base of [pathPointer, op.pointer]) {
      (this.at(base).parameters || []).forEach((_, i) => {
        const { node, pointer } = this.resolve(`${base}/parameters/${i}`);
        if (node.in === 'query') out[node.name] = { pointer: `${pointer}/schema`, required: node.required === true, node };
      });
    }
    return out;
  }

  // The JSON request body: { pointer (of its schema), required, mediaPointer } or null.
  requestBody(op) {
    if (!this.at(op.pointer).requestBody) return null;
    const { node, pointer } = this.resolve(`${op.pointer}/requestBody`);
    const type = Object.keys(node.content || {}).find(isJsonMedia);
    if (!type) return null;
    const mediaPointer = `${pointer}/content/${escapePointer(type)}`;
    return { pointer: `${mediaPointer}/schema`, required: node.required === true, mediaPointer };
  }

  // The schema of a text/plain request body, when the request is one and the operation documents it.
  textRequestBody(op, request) {
    const type = Object.entries(request.headers || {}).find(([k]) => k.toLowerCase() === 'content-type');
    if (!type || !type[1].toLowerCase().startsWith('text/plain') || !this.at(op.pointer).requestBody) return null;
    const { node, pointer } = this.resolve(`${op.pointer}/requestBody`);
    if (!(node.content || {})['text/plain']) return null;
    return `${pointer}/content/${escapePointer('text/plain')}/schema`;
  }

  // The field names a request to this operation may carry (query parameters, or body properties).
  documentedFields(op) {
    const names = new Set(Object.keys(this.queryParameters(op)));
    const body = this.requestBody(op);
    if (body) this.propertyNames(body.pointer).forEach((n) => names.add(n));
    return names;
  }

  // The readings of a query value a server may make: the text, a number, a boolean, a
  // comma-separated array. The value is allowed when any reading matches the schema.
  queryValueErrors(pointer, text, reportAsText = false) {
    const scalar = (t) => {
      const readings = [t];
      if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(t)) readings.push(Number(t));
      if (t === 'true' || t === 'false') readings.push(t === 'true');
      return readings;
    };
    const pieces = text === '' ? [] : text.split(',');
    const readings = [...scalar(text), pieces, pieces.map((p) => scalar(p).slice(-1)[0])];
    if (readings.some((reading) => !this.schemaErrors(pointer, reading))) return null;
    return this.schemaErrors(pointer, reportAsText ? text : scalar(text).slice(-1)[0]); // the most telling reading
  }

  // Why a request is outside what the spec allows for an operation ([] when it is allowed).
  requestProblems(op, request) {
    const problems = [];
    const params = this.queryParameters(op);
    const seen = new Map();
    for (const [name, value] of request.query) seen.set(name, [...(seen.get(name) || []), value]);
    for (const [name, values] of seen) {
      if (!params[name]) problems.push(`query parameter '${name}' is not documented`);
      else if (values.length > 1) problems.push(`query parameter '${name}' is repeated`);
      else {
        const errors = this.queryValueErrors(params[name].pointer, values[0]);
        if (errors) problems.push(`query parameter '${name}=${values[0]}': ${errors}`);
      }
    }
    for (const [name, p] of Object.entries(params)) {
      if (p.required && !seen.has(name)) problems.push(`required query parameter '${name}' is missing`);
    }
    const body = this.requestBody(op);
    const text = request.body === null || request.body === undefined ? '' : String(request.body);
    if (text.trim() === '') {
      if (body && body.required) problems.push('the request body is required');
    } else if (!body) {
      problems.push('the operation documents no request body');
    } else if (this.textRequestBody(op, request)) {
      const errors = this.schemaErrors(this.textRequestBody(op, request), text);
      if (errors) problems.push(`request body: ${errors}`);
    } else {
      let value;
      try {
        value = JSON.parse(text);
      } catch (e) {
        problems.push('the request body is not JSON');
        return problems;
      }
      const errors = this.schemaErrors(body.pointer, value);
      if (errors) problems.push(`request body: ${errors}`);
    }
    return problems;
  }

  // The problems of NDJSON `text` against the schema at `pointer`, line by line.
  ndjsonProblems(pointer, text) {
    const problems = [];
    if (text.length && !text.endsWith('\n')) problems.push('the NDJSON body does not end with a newline');
    let bad = 0;
    text.split('\n').slice(0, -1).forEach((line, i) => {
      let errors;
      try {
        errors = this.schemaErrors(pointer, JSON.parse(line));
      } catch (e) {
        errors = 'not JSON';
      }
      if (errors && bad++ < 3) problems.push(`NDJSON line ${i + 1} (${line.slice(0, 80)}): ${errors}`);
    });
    if (bad > 3) problems.push(`... ${bad} NDJSON lines in all do not match`);
    return problems;
  }

  // An event stream against ProgressEventStream: progress events in order, then exactly one result
  // (the answer in the response's own JSON or NDJSON media type) or failed (an Error body). Returns
  // { problems, code } (the failed event's code).
  eventStreamProblems(media, body) {
    const problems = [];
    const events = parseEvents(body);
    const last = events[events.length - 1];
    const ends = events.filter((e) => e.name === 'result' || e.name === 'failed');
    if (ends.length !== 1 || ends[0] !== last) problems.push(`not exactly one result or failed event, last: ${events.map((e) => e.name)}`);
    let done = -1;
    let elapsed = -1;
    let code = null;
    for (const { name, data } of events) {
      // NDJSON ends with a newline, a JSON document does not
      const ndjson = name === 'result' && data.endsWith('\n') && media[NDJSON];
      let value;
      try {
        value = ndjson ? null : JSON.parse(data);
      } catch (e) {
        value = undefined;
      }
      if (name === 'progress') {
        const errors = value === undefined ? 'not JSON' : this.schemaErrors(PROGRESS_DATA, value);
        if (errors) problems.push(`progress event ${data}: ${errors}`);
        else if (value.done < done || value.elapsed_ms < elapsed) problems.push(`progress went back: ${data}`);
        else if (value.total !== null && value.done > value.total) problems.push(`progress past its total: ${data}`);
        if (!errors) [done, elapsed] = [value.done, value.elapsed_ms];
      } else if (name === 'failed') {
        const errors = value === undefined ? 'not JSON' : this.schemaErrors(ERROR_BODY, value);
        if (errors) problems.push(`failed event ${data.slice(0, 200)}: ${errors}`);
        else code = value.error.code;
      } else if (name === 'result' && ndjson) {
        problems.push(...this.ndjsonProblems(media[NDJSON], data));
      } else if (name === 'result') {
        const errors = value === undefined ? 'not JSON' : this.schemaErrors(media['application/json'], value);
        if (errors) problems.push(`result event ${data.slice(0, 200)}: ${errors}`);
      } else {
        problems.push(`event '${name}' (${data.slice(0, 80)}) is not a progress, result or failed event`);
      }
    }
    return { problems, code };
  }

  // Checks a response against a response object; returns { problems, mediaType, code }.
  responseProblems(responsePointer, response) {
    const problems = [];
    const { headers, media } = this.describe(responsePointer);
    for (const [lname, h] of Object.entries(headers)) {
      const value = response.headers[lname];
      if (value === undefined) {
        if (h.required) problems.push(`header ${h.name} is missing`);
        continue;
      }
      const errors = this.queryValueErrors(`${h.pointer}/schema`, String(value), true);
      if (errors) problems.push(`header ${h.name}: ${value}: ${errors}`);
    }
    for (const lname of Object.keys(response.headers)) {
      if (!headers[lname] && !TRANSFER_HEADERS.has(lname)) problems.push(`header ${lname} is not documented`);
    }
    const contentType = (response.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
    const body = response.body.toString('utf8');
    const types = Object.keys(media);
    let code = null;
    if (types.length === 0) {
      if (body.length) problems.push(`a body of ${body.length} bytes where none is documented`);
      if (contentType) problems.push(`Content-Type ${contentType} where no body is documented`);
      return { problems, mediaType: null, code };
    }
    if (!types.includes(contentType)) {
      problems.push(`Content-Type '${contentType}' is not documented here (documented: ${types.join(', ')})`);
      return { problems, mediaType: contentType, code };
    }
    const schema = media[contentType];
    if (contentType === NDJSON) {
      problems.push(...this.ndjsonProblems(schema, body));
    } else if (contentType === EVENT_STREAM) {
      const stream = this.eventStreamProblems(media, body);
      problems.push(...stream.problems);
      code = stream.code;
    } else if (isJsonMedia(contentType)) {
      let value;
      try {
        value = JSON.parse(body);
      } catch (e) {
        problems.push(`the body is not JSON: ${body.slice(0, 120)}`);
        return { problems, mediaType: contentType, code };
      }
      const errors = this.schemaErrors(schema, value);
      if (errors) problems.push(`body ${body.slice(0, 200)}: ${errors}`);
      if (value && value.error && typeof value.error.code === 'string') code = value.error.code;
    } else {
      if (contentType.endsWith('yaml')) {
        try {
          YAML.parse(body);
        } catch (e) {
          problems.push(`the body is not YAML: ${e.message}`);
        }
      }
      const errors = this.schemaErrors(schema, body);
      if (errors) problems.push(`body: ${errors}`);
    }
    return { problems, mediaType: contentType, code };
  }
}

module.exports = { Spec, escapePointer };
