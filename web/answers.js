// Talking to the service from the playground: JSON answers parsed with exact big integers (BigInt),
// NDJSON streams read line by line as they arrive, and errors turned into {status, code, message,
// field}. No drawing here (pictures.js) and no forms (playground.js).
'use strict';

const Answers = (() => {
  // JSON.parse keeping integers beyond 2^53 exact: the reviver's context.source holds the digits.
  function parseJson(text) {
    return JSON.parse(text, (key, value, context) =>
      typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && context?.source
        ? BigInt(context.source) : value);
  }

  // JSON text of a value that may hold BigInts (printed as bare digits, as the service would).
  function toJson(value, indent) {
    const marker = '\u0000big:';
    const text = JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? marker + v.toString() : v), indent);
    return text.replace(new RegExp(`"${marker}(-?\\d+)"`, 'g'), '$1');
  }

  // A count or other big integer the service sent as decimal digits (string) or number, as a BigInt.
  function bigInteger(value) {
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
    if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
    return null;
  }

  // The error of a 4xx/5xx answer: {status, code, message, field}; the body may not be JSON (a proxy's page).
  async function errorOf(response) {
    const text = await response.text();
    try {
      const error = parseJson(text).error ?? {};
      return {status: response.status, code: error.code ?? 'error', message: error.message ?? text, field: error.field ?? null};
    } catch {
      return {status: response.status, code: 'error', message: text.slice(0, 500) || response.statusText, field: null};
    }
  }

  const YIELD_EVERY_MS = 50;

  // Reads an NDJSON body, calling onItem(value, index) per line as lines arrive; resolves with the
  // number of items when the body ends; rejects with an AbortError when the request's signal aborts
  // (Stop). Gives the page a turn to render every YIELD_EVERY_MS.
  async function readNdjson(response, onItem) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let pending = '', count = 0, yielded = performance.now();
    for (;;) {
      const {value, done} = await reader.read();
      pending += decoder.decode(value ?? new Uint8Array(), {stream: !done});
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) if (line.trim() !== '') onItem(parseJson(line), count++);
      if (done) break;
      if (performance.now() - yielded > YIELD_EVERY_MS) { // a fast stream would starve the page's rendering
        await new Promise((resume) => setTimeout(resume));
        yielded = performance.now();
      }
    }
    if (pending.trim() !== '') onItem(parseJson(pending), count++);
    return count;
  }

  return {parseJson, toJson, bigInteger, errorOf, readNdjson};
})();
