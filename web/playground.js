// The playground's endpoint view (#/<path>): for every computing endpoint (every path with a POST in
// /openapi.yaml, read by spec-worker.js off the main thread) a form of its request fields with their
// defaults, limits and Markdown descriptions (markdown.js), filled with the spec's worked example and
// sent at once, so each endpoint opens answered and drawn. Sends the form as a JSON POST through the
// TypeScript client (/vendor/puzzled-client.js, which reads every answer, stream, event and error),
// shows the equivalent curl command, streams NDJSON with a live counter and a Stop button, shows a
// progress bar with the time left where the endpoint reports progress (Accept: text/event-stream) and
// an elapsed-time counter elsewhere, puts an error next to the field it names, and hands the answer to
// pictures.js. The spec is the only list of fields: a field added to openapi.yaml appears here.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const SHOWN_STREAM_ITEMS = 20;
  const COUNTER_EVERY_MS = 100;
  const YIELD_EVERY_MS = 15; // a fast stream gives the page a turn this often, so it cannot freeze it
  const RAW_TEXT_LIMIT = 200000;
  // Streams whose point is the list itself start in NDJSON mode.
  const STREAMED_BY_DEFAULT = new Set(['/permutations', '/combinations', '/shuffle']);

  let endpoints = [];
  let loading = null; // the worker's promise, once the view was first asked for
  let current = null;
  let running = null; // the AbortController of the request in flight

  // ---- the form ----
  const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

  // How a field is entered: a list to choose from, true/false, a line of text, or JSON text (arrays,
  // objects, and a choice that also takes a list, such as a dictionary's name or its words).
  function kindOf(info) {
    if (info.values && [...info.types].every((t) => SCALARS.has(t))) return 'choice';
    if (info.types.size === 1 && info.types.has('boolean')) return 'boolean';
    if (info.types.size > 0 && [...info.types].every((t) => t === 'integer' || t === 'number' || t === 'string')) return 'text';
    return 'json';
  }

  function hintOf(info) {
    const parts = [];
    if (info.default !== undefined) parts.push(`default ${JSON.stringify(info.default)}`);
    if (info.minimum !== undefined && info.maximum !== undefined) parts.push(`${info.minimum} to ${info.maximum}`);
    else if (info.minimum !== undefined) parts.push(`at least ${info.minimum}`);
    else if (info.maximum !== undefined) parts.push(`at most ${info.maximum}`);
    if (kindOf(info) === 'json') parts.push('JSON');
    return parts.join(' · ');
  }

  function exampleText(value) {
    if (value === undefined) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  }

  function fieldRow(endpoint, info) {
    const name = info.name;
    const kind = kindOf(info);
    const id = `field-${name}`;
    const row = document.createElement('div');
    row.className = 'field';
    row.dataset.field = name;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = endpoint.required.has(name) ? `${name} (required)` : name;
    let input;
    if (kind === 'choice' || kind === 'boolean') {
      input = document.createElement('select');
      const values = kind === 'boolean' ? [true, false] : info.values;
      input.append(new Option(info.default !== undefined ? `(default: ${info.default})` : '(not sent)', ''));
      values.forEach((v) => input.append(new Option(String(v), JSON.stringify(v)))); // the value is its JSON
      input.value = endpoint.example[name] !== undefined ? JSON.stringify(endpoint.example[name]) : '';
    } else {
      input = document.createElement(kind === 'json' || name === 'puzzle' ? 'textarea' : 'input');
      if (input.tagName === 'INPUT') input.type = 'text';
      if (info.types.has('integer') && !info.types.has('string')) input.inputMode = 'numeric';
      if (info.default !== undefined) input.placeholder = exampleText(info.default);
      input.value = exampleText(endpoint.example[name]);
    }
    input.id = id;
    input.name = name;
    input.dataset.kind = kind;
    input.dataset.types = [...info.types].join(' ');
    input.dataset.values = JSON.stringify(info.values ?? []);
    const hint = document.createElement('div');
    hint.id = `hint-${name}`;
    hint.className = 'hint';
    const limits = hintOf(info);
    if (limits) hint.append(Object.assign(document.createElement('span'), {className: 'limits', textContent: limits}));
    hint.append(Markdown.render(info.description));
    const error = document.createElement('p');
    error.id = `error-${name}`;
    error.className = 'field-error';
    error.setAttribute('role', 'alert');
    input.setAttribute('aria-describedby', `${error.id} ${hint.id}`);
    row.append(label, input, error, hint);
    return row;
  }

  function showEndpoint(endpoint) {
    current = endpoint;
    $('endpoint-choice').value = endpoint.path;
    $('endpoint-summary').textContent = endpoint.summary;
    const fields = $('fields');
    fields.replaceChildren();
    for (const info of endpoint.fields) fields.append(fieldRow(endpoint, info));
    $('stream-option').hidden = !endpoint.streams;
    $('stream-choice').checked = endpoint.streams && STREAMED_BY_DEFAULT.has(endpoint.path);
    clearAnswer();
    updateCurl();
    send(); // the worked example, answered and drawn
  }

  // ---- the request ----
  // The JSON text of one field, or undefined when it is left empty; throws a message for bad input.
  function jsonOfField(input) {
    const text = input.value.trim();
    if (text === '') return undefined;
    const kind = input.dataset.kind, types = new Set(input.dataset.types.split(' '));
    if (kind === 'boolean' || kind === 'choice') return text; // the option's value is JSON already
    if (kind === 'json') {
      try {
        JSON.parse(text); // validates; the curl line shows the text itself
        return text;
      } catch (error) {
        // a name where a name or a list is taken ("common" for a dictionary)
        if (types.has('string') || JSON.parse(input.dataset.values).includes(text)) return JSON.stringify(text);
        throw error;
      }
    }
    if ((types.has('integer') || types.has('number')) && /^-?\d+$/.test(text)) {
      // beyond 2^53 an integer travels as a string of digits where the field takes one (counts, ranks, seeds)
      return Number.isSafeInteger(Number(text)) || !types.has('string') ? text : JSON.stringify(text);
    }
    if (types.has('string')) return JSON.stringify(text);
    if (types.has('number') && Number.isFinite(Number(text))) return text;
    throw new Error('expected a whole number');
  }

  // {body, problems}: the body as JSON text, and the fields whose input could not be read.
  function requestBody() {
    const parts = [], problems = [];
    for (const input of $('fields').querySelectorAll('input, select, textarea')) {
      try {
        const json = jsonOfField(input);
        if (json !== undefined) parts.push(`${JSON.stringify(input.name)}:${json}`);
      } catch (error) {
        problems.push({field: input.name, message: error instanceof SyntaxError ? 'not valid JSON' : error.message});
      }
    }
    return {body: `{${parts.join(',')}}`, problems};
  }

  const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

  function updateCurl() {
    const {body} = requestBody();
    const accept = $('stream-choice').checked && current.streams ? " -H 'Accept: application/x-ndjson'" : '';
    $('curl-line').textContent = `curl -sS ${shellQuote(location.origin + current.path)} -H 'Content-Type: application/json'${accept} -d ${shellQuote(body)}`;
  }

  // ---- the answer ----
  function clearAnswer() {
    for (const id of ['status', 'numbers', 'picture', 'stream-items', 'raw-text', 'stream-state']) $(id).replaceChildren();
    $('stream').hidden = true;
    for (const row of document.querySelectorAll('.field')) showFieldError(row.dataset.field, '');
  }

  function showFieldError(field, message) {
    const error = $(`error-${field}`), input = $(`field-${field}`);
    if (!error) return false;
    error.textContent = message;
    if (message) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    return true;
  }

  function showStatus(text, isError) {
    $('status').textContent = text;
    $('status').className = isError ? 'error' : '';
  }

  // A count or other integer of an answer (a string of digits when it can pass 2^53, else a number)
  // as a BigInt; null for anything else.
  function bigInteger(value) {
    if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
    if (typeof value === 'string' && /^[0-9]+$/.test(value)) return PuzzledClient.toBigInt(value);
    return null;
  }

  // Big integers of the answer (counts, totals, ranks), shown exactly with digit grouping.
  function showNumbers(answer) {
    const list = document.createElement('dl');
    for (const [key, value] of Object.entries(answer)) {
      if (!/count|total|rank|steps|givens/.test(key)) continue;
      const big = bigInteger(value);
      if (big === null) continue;
      const term = document.createElement('dt'), detail = document.createElement('dd');
      term.textContent = key;
      detail.textContent = big.toLocaleString('en-US');
      detail.dataset.exact = big.toString();
      detail.id = `number-${key}`;
      list.append(term, detail);
    }
    if (list.childElementCount) $('numbers').append(list);
  }

  function showRaw(text) {
    $('raw-text').textContent = text.length > RAW_TEXT_LIMIT ? `${text.slice(0, RAW_TEXT_LIMIT)}\n… (${text.length} characters in all)` : text;
  }

  function showImage(blob, endpointPath) {
    const image = document.createElement('img');
    image.className = 'answer-image';
    image.alt = `The answer of ${endpointPath} as drawn by the service`;
    image.src = URL.createObjectURL(blob);
    image.addEventListener('load', () => URL.revokeObjectURL(image.src), {once: true});
    $('picture').append(image);
  }

  // The values of an NDJSON stream (the client's AsyncIterable) as they come: a live count and the first
  // SHOWN_STREAM_ITEMS items. Ends with the stream; an abort (Stop) or the stream's error end is thrown.
  async function showStream(values) {
    $('stream').hidden = false;
    const items = $('stream-items'), counter = $('stream-count');
    let shown = 0, count = 0, painted = 0, yielded = performance.now();
    const paint = () => { counter.textContent = count.toLocaleString('en-US'); painted = performance.now(); };
    for await (const value of values) {
      count++;
      if (shown < SHOWN_STREAM_ITEMS) {
        const item = document.createElement('li');
        item.textContent = JSON.stringify(value);
        items.append(item);
        shown++;
      }
      if (performance.now() - painted > COUNTER_EVERY_MS) paint();
      if (performance.now() - yielded > YIELD_EVERY_MS) {
        await new Promise((resume) => setTimeout(resume));
        yielded = performance.now();
      }
    }
    paint();
    $('stream-state').textContent = ' — complete';
  }

  // A computation that reports progress (Accept: text/event-stream) has begun: the bar, not yet moving.
  function startProgress() {
    $('progress').hidden = false;
    $('progress-bar').removeAttribute('value');
    $('progress-text').textContent = 'starting…';
    showStatus('Computing on the server; Stop ends it there.');
  }

  // One progress event ({done, total, unit}): the bar and the time left.
  function showProgress({done, total, unit}, started) {
    const seconds = (performance.now() - started) / 1000, text = $('progress-text');
    if (total) {
      $('progress-bar').value = done / total;
      const left = done > 0 ? seconds * (total - done) / done : null;
      text.textContent = `${Math.floor(100 * done / total)} % of ${Number(total).toLocaleString('en-US')} ${unit}` +
        (left === null ? '' : ` · about ${left < 1.5 ? 'a second' : `${Math.ceil(left)} s`} left`);
    } else {
      text.textContent = `${Number(done).toLocaleString('en-US')} ${unit} · ${seconds.toFixed(1)} s`;
    }
    $('progress').dataset.done = done;
  }

  // A PuzzledError: next to its field when the form has it; its status where it is an HTTP one (an
  // error inside a progress stream comes with the stream's 200).
  function showError(error) {
    const placed = error.field !== undefined && showFieldError(error.field, error.message);
    const status = error.status >= 400 ? `${error.status} ` : '';
    showStatus(`${status}${error.code}${error.field ? ` (field ${error.field})` : ''}${placed ? '' : `: ${error.message}`}`, true);
  }

  // The answer of a plain or progress call: parsed JSON (shown, counted and drawn), or the text of
  // another media type (SVG, the service's own drawing, shown as an image).
  function showAnswer(endpoint, fields, answer, response, took) {
    showStatus(`${response.status} in ${took} ms`);
    const type = (response.headers.get('Content-Type') ?? '').split(';')[0].trim();
    if (type === 'image/svg+xml') { // format: svg
      showImage(new Blob([answer], {type}), endpoint.path);
    } else if (typeof answer === 'string') {
      showRaw(answer);
    } else {
      showRaw(JSON.stringify(answer));
      showNumbers(answer);
      Pictures.draw(endpoint.path, answer, $('picture'), fields);
    }
  }

  // Sends the form; a Send while an answer is awaited replaces that request.
  async function send(event) {
    event?.preventDefault();
    running?.abort();
    clearAnswer();
    const {body, problems} = requestBody();
    if (problems.length) {
      problems.forEach((p) => showFieldError(p.field, p.message));
      showStatus(`Not sent: ${problems.map((p) => p.field).join(', ')} could not be read.`, true);
      return;
    }
    const streaming = $('stream-choice').checked && current.streams;
    const endpoint = current;
    const controller = running = new AbortController();
    $('answer').dataset.state = 'busy';
    $('send').disabled = true;
    $('stop').disabled = false;
    showStatus('Sending…');
    // on a phone the answer is below the form: a Send by hand brings it into view
    if (event && $('answer').getBoundingClientRect().top > innerHeight) $('answer').scrollIntoView({block: 'start'});
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    // the elapsed time in the status line until the answer or its first progress event comes
    const stopCounter = streaming ? () => {} : Answers.elapsedTicker((elapsed) => showStatus(`Waiting for the answer… ${elapsed}`));
    let received = null; // the response the client read, seen by its hook: its status and media type
    const service = PuzzledClient.createClient({baseUrl: '', hooks: [{onResponse: (response) => {
      received = response;
      stopCounter();
      if (!response.ok || controller !== running) return; // the client throws its PuzzledError; a replaced Send shows nothing
      if (streaming) showStatus(`${response.status}: streaming…`);
      else if ((response.headers.get('Content-Type') ?? '').startsWith('text/event-stream')) startProgress();
    }}]});
    const fields = JSON.parse(body), options = {signal: controller.signal};
    try {
      if (streaming) {
        await showStream(service.stream(endpoint.path, fields, options));
        showStatus(`${received.status} in ${took()} ms`);
        return;
      }
      if (fields.format === 'svg') { // the service's own drawing, asked for plainly: a progress result carries no JSON
        showAnswer(endpoint, fields, await service.post(endpoint.path, fields, options), received, took());
        return;
      }
      // a route that reports progress answers with events, the others plainly: either way the client
      // ends with the answer
      for await (const event of service.progress(endpoint.path, fields, options)) {
        if (event.type === 'progress') showProgress(event.progress, started);
        else showAnswer(endpoint, fields, event.result, received, took());
      }
    } catch (error) {
      if (controller !== running) return; // replaced by a newer Send
      if (error.name === 'AbortError') {
        $('stream-state').textContent = ' — stopped';
        showStatus('Stopped: the request was cancelled and the server stops producing the answer.');
      } else if (error instanceof PuzzledClient.PuzzledError) {
        showError(error);
      } else {
        showStatus(`The request failed: ${error.message}`, true);
      }
    } finally {
      stopCounter();
      if (controller === running) {
        running = null;
        $('progress').hidden = true;
        $('send').disabled = false;
        $('stop').disabled = true;
        $('answer').dataset.state = 'done';
      }
    }
  }

  // The endpoints, read once by the worker when the view is first shown.
  function loadEndpoints() {
    loading ??= new Promise((resolve, reject) => {
      const worker = new Worker('/spec-worker.js');
      worker.addEventListener('message', ({data}) => { worker.terminate(); data.error ? reject(new Error(data.error)) : resolve(data.endpoints); });
      worker.addEventListener('error', (event) => reject(new Error(event.message || 'the spec worker failed')));
    });
    return loading;
  }

  function buildChoice() {
    const choice = $('endpoint-choice');
    const groups = new Map();
    for (const endpoint of endpoints) {
      if (!groups.has(endpoint.tag)) {
        const group = document.createElement('optgroup');
        group.label = endpoint.tag;
        groups.set(endpoint.tag, group);
        choice.append(group);
      }
      groups.get(endpoint.tag).append(new Option(`${endpoint.path} — ${endpoint.summary}`, endpoint.path));
    }
    choice.addEventListener('change', () => { location.hash = choice.value; });
    $('endpoint-form').addEventListener('submit', send);
    $('endpoint-form').addEventListener('input', updateCurl);
    $('stop').addEventListener('click', () => running?.abort());
    $('copy-curl').addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText($('curl-line').textContent);
        $('copy-curl').textContent = 'Copied';
      } catch {
        getSelection().selectAllChildren($('curl-line')); // no clipboard access: select it for Ctrl+C
      }
    });
  }

  // #/<path> is this view; #play/… and the front page (any other address) belong to play.js.
  const isMine = () => /^#\//.test(location.hash);
  async function route() {
    if (!isMine()) { running?.abort(); return; }
    if (!endpoints.length) {
      try {
        endpoints = await loadEndpoints();
      } catch (error) {
        showStatus(`Could not read /openapi.yaml: ${error.message}`, true);
        return;
      }
      buildChoice();
      document.body.dataset.ready = 'true';
    }
    if (!isMine()) return; // moved on meanwhile
    const path = decodeURIComponent(location.hash.replace(/^#/, ''));
    const endpoint = endpoints.find((e) => e.path === path) ?? endpoints.find((e) => e.path === '/queens') ?? endpoints[0];
    if (endpoint !== current) showEndpoint(endpoint);
    document.body.dataset.view = 'endpoint'; // shown once built: nothing shifts as it fills in
    document.querySelectorAll('nav.modes a').forEach((a) => { if (a.classList.contains('try')) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current'); });
  }

  window.addEventListener('hashchange', route);
  route();
})();
