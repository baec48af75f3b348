// Talking to the service from the playground: JSON answers parsed with exact big integers (BigInt),
// NDJSON streams read line by line as they arrive, server-sent events (the progress of a long
// computation) read event by event, and errors turned into {status, code, message, field}. No
// drawing here (pictures.js) and no forms (playground.js).
'use strict';

const Answers = (() => {
  // JSON.parse keeping integers beyond 2^53 exact: the reviver's context.source holds the digits.
  // Text without 16 digits in a row has no such integer: plain JSON.parse, much faster on big answers
  // (a 2000 x 2000 tour is 4 million squares).
  function parseJson(text) {
    if (!/\d{16}/.test(text)) return JSON.parse(text);
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

  const YIELD_EVERY_MS = 15;

  // Reads an NDJSON body as it arrives, calling onLine(text, index) for each line (parse it with
  // parseJson if needed: a live count of millions of lines must not parse them all) and onBlank()
  // for each empty line; resolves with the number of lines when the body ends, rejects with an
  // AbortError when the request's signal aborts (Stop). Gives the page a turn every YIELD_EVERY_MS,
  // so a fast stream cannot freeze it.
  async function readNdjson(response, onLine, onBlank = () => {}) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let pending = '', count = 0, yielded = performance.now();
    for (;;) {
      const {value, done} = await reader.read();
      pending += decoder.decode(value ?? new Uint8Array(), {stream: !done});
      let from = 0;
      for (let end = pending.indexOf('\n'); end !== -1; from = end + 1, end = pending.indexOf('\n', from)) {
        if (end > from && pending.slice(from, end) !== '\r') onLine(pending.slice(from, end), count++);
        else onBlank();
      }
      pending = pending.slice(from);
      if (done) break;
      if (performance.now() - yielded > YIELD_EVERY_MS) {
        await new Promise((resume) => setTimeout(resume));
        yielded = performance.now();
      }
    }
    if (pending.trim() !== '') onLine(pending, count++);
    return count;
  }

  // Reads a text/event-stream body, calling onEvent(type, data) for each event (data lines joined by
  // "\n", comment lines skipped); resolves when the body ends, rejects with an AbortError on Stop.
  async function readEvents(response, onEvent) {
    let type = 'message', data = [];
    await readNdjson(response, (line) => {
      line = line.replace(/\r$/, '');
      if (line.startsWith(':')) return;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon), value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
    }, () => { // a blank line ends an event
      if (data.length) onEvent(type, data.join('\n'));
      type = 'message';
      data = [];
    });
    if (data.length) onEvent(type, data.join('\n'));
  }

  const TICK_EVERY_MS = 100;

  // The time an answer has been awaited, as "1.2 s", handed to show() every TICK_EVERY_MS until the
  // returned stop() is called.
  function elapsedTicker(show) {
    const started = performance.now();
    const timer = setInterval(() => show(`${((performance.now() - started) / 1000).toFixed(1)} s`), TICK_EVERY_MS);
    return () => clearInterval(timer);
  }

  return {parseJson, toJson, bigInteger, errorOf, readNdjson, readEvents, elapsedTicker};
})();
