// The playground's forms: reads /openapi.yaml at run time and builds, for every computing endpoint
// (every path with a POST), a form of its request fields with their defaults, limits and
// descriptions; sends it as a JSON POST, shows the equivalent curl command, streams NDJSON with a
// live counter and a Stop button, puts an error next to the field it names, and hands the answer to
// pictures.js. The spec is the only list of fields: a field added to openapi.yaml appears here.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const SHOWN_STREAM_ITEMS = 20;
  const COUNTER_EVERY_MS = 100;
  const RAW_TEXT_LIMIT = 200000;
  // Streams whose point is the list itself start in NDJSON mode.
  const STREAMED_BY_DEFAULT = new Set(['/permutations', '/combinations', '/shuffle']);

  let spec = null;
  let endpoints = [];
  let current = null;
  let running = null; // the AbortController of the request in flight

  // ---- the spec ----
  function resolve(node) {
    let seen = 0;
    while (node && node.$ref && seen++ < 32) {
      node = node.$ref.replace(/^#\//, '').split('/').reduce((at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
    }
    return node ?? {};
  }

  // The properties of a request schema, merging the branches of oneOf / anyOf / allOf.
  function propertiesOf(schema, into = new Map()) {
    schema = resolve(schema);
    for (const [name, property] of Object.entries(schema.properties ?? {})) if (!into.has(name)) into.set(name, property);
    for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) propertiesOf(branch, into);
    return into;
  }

  // What a property accepts: its JSON types, enum values, default, minimum and maximum.
  function describe(property) {
    const schema = resolve(property);
    const info = {types: new Set(), values: null, default: schema.default, minimum: schema.minimum, maximum: schema.maximum,
      description: property.description ?? schema.description ?? ''};
    const visit = (s) => {
      s = resolve(s);
      [].concat(s.type ?? []).forEach((t) => info.types.add(t));
      if (s.enum) info.values = (info.values ?? []).concat(s.enum);
      if ('const' in s) info.values = (info.values ?? []).concat([s.const]);
      if (info.default === undefined && s.default !== undefined) info.default = s.default;
      if (info.minimum === undefined) info.minimum = s.minimum;
      if (info.maximum === undefined) info.maximum = s.maximum;
      for (const branch of [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])]) visit(branch);
    };
    visit(schema);
    if (info.values && info.types.size === 0) info.values.forEach((v) => info.types.add(typeof v));
    return info;
  }

  function endpointsOf() {
    const list = [];
    for (const [path, item] of Object.entries(spec.paths)) {
      if (!item.post) continue;
      const body = resolve(item.post.requestBody)?.content?.['application/json'] ?? {};
      const schema = resolve(body.schema);
      const ok = resolve(item.post.responses?.['200']);
      list.push({path, tag: item.post.tags?.[0] ?? '', summary: item.post.summary ?? '', required: new Set(schema.required ?? []),
        properties: propertiesOf(schema), example: body.example ?? Object.values(body.examples ?? {})[0]?.value ?? {},
        streams: Boolean(ok.content?.['application/x-ndjson'])});
    }
    return list;
  }

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

  function fieldRow(endpoint, name, property) {
    const info = describe(property);
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
    const hint = document.createElement('small');
    hint.id = `hint-${name}`;
    hint.className = 'hint';
    hint.textContent = [hintOf(info), info.description].filter(Boolean).join(' — ');
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
    for (const [name, property] of endpoint.properties) fields.append(fieldRow(endpoint, name, property));
    $('stream-option').hidden = !endpoint.streams;
    $('stream-choice').checked = endpoint.streams && STREAMED_BY_DEFAULT.has(endpoint.path);
    clearAnswer();
    updateCurl();
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
        Answers.parseJson(text); // validates; the text itself is sent, so big integers stay exact
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

  // Big integers of the answer (counts, totals, ranks), shown exactly with digit grouping.
  function showNumbers(answer) {
    const list = document.createElement('dl');
    for (const [key, value] of Object.entries(answer)) {
      if (!/count|total|rank|steps|givens/.test(key)) continue;
      const big = Answers.bigInteger(value);
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

  async function showStream(response) {
    $('stream').hidden = false;
    const items = $('stream-items'), counter = $('stream-count');
    let shown = 0, count = 0, painted = 0;
    const paint = () => { counter.textContent = count.toLocaleString('en-US'); painted = performance.now(); };
    const total = await Answers.readNdjson(response, (line) => {
      count++;
      if (shown < SHOWN_STREAM_ITEMS) {
        const item = document.createElement('li');
        item.textContent = Answers.toJson(Answers.parseJson(line));
        items.append(item);
        shown++;
      }
      if (performance.now() - painted > COUNTER_EVERY_MS) paint();
    });
    count = total;
    paint();
    $('stream-state').textContent = ' — complete';
  }

  async function send(event) {
    event.preventDefault();
    if (running) return;
    clearAnswer();
    const {body, problems} = requestBody();
    if (problems.length) {
      problems.forEach((p) => showFieldError(p.field, p.message));
      showStatus(`Not sent: ${problems.map((p) => p.field).join(', ')} could not be read.`, true);
      return;
    }
    const streaming = $('stream-choice').checked && current.streams;
    const endpoint = current;
    running = new AbortController();
    $('send').disabled = true;
    $('stop').disabled = false;
    showStatus('Sending…');
    const started = performance.now();
    try {
      const response = await fetch(endpoint.path, {method: 'POST', body, signal: running.signal,
        headers: {'Content-Type': 'application/json', Accept: streaming ? 'application/x-ndjson' : 'application/json'}});
      if (!response.ok) {
        const error = await Answers.errorOf(response);
        const placed = error.field !== null && showFieldError(error.field, error.message);
        showStatus(`${error.status} ${error.code}${error.field ? ` (field ${error.field})` : ''}${placed ? '' : `: ${error.message}`}`, true);
        return;
      }
      const type = response.headers.get('Content-Type') ?? '';
      if (type.startsWith('application/x-ndjson')) {
        showStatus(`${response.status}: streaming…`);
        await showStream(response);
        showStatus(`${response.status} in ${Math.round(performance.now() - started)} ms`);
        return;
      }
      if (type.startsWith('image/svg+xml')) { // format: svg: the service's own drawing
        showStatus(`${response.status} in ${Math.round(performance.now() - started)} ms`);
        showImage(await response.blob(), endpoint.path);
        return;
      }
      const text = await response.text();
      showStatus(`${response.status} in ${Math.round(performance.now() - started)} ms`);
      showRaw(text);
      if (!type.startsWith('application/json')) return;
      const answer = Answers.parseJson(text);
      showNumbers(answer);
      Pictures.draw(endpoint.path, answer, $('picture'), Answers.parseJson(body));
    } catch (error) {
      if (error.name === 'AbortError') {
        $('stream-state').textContent = ' — stopped';
        showStatus('Stopped: the request was cancelled and the server stops producing the answer.');
      } else {
        showStatus(`The request failed: ${error.message}`, true);
      }
    } finally {
      running = null;
      $('send').disabled = false;
      $('stop').disabled = true;
    }
  }

  function chooseFromHash() {
    const path = decodeURIComponent(location.hash.replace(/^#/, ''));
    const endpoint = endpoints.find((e) => e.path === path) ?? endpoints.find((e) => e.path === '/queens') ?? endpoints[0];
    if (endpoint !== current) showEndpoint(endpoint);
  }

  async function start() {
    try {
      const response = await fetch('/openapi.yaml');
      spec = jsyaml.load(await response.text());
    } catch (error) {
      showStatus(`Could not read /openapi.yaml: ${error.message}`, true);
      return;
    }
    endpoints = endpointsOf();
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
    window.addEventListener('hashchange', chooseFromHash);
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
    chooseFromHash();
    document.body.dataset.ready = 'true';
  }

  start();
})();
