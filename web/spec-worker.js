// A Web Worker that reads /openapi.yaml (about 250 KB of YAML) off the page's main thread and posts
// back only what the playground's forms need: for every computing endpoint (a path with a POST) its
// tag, summary, whether it streams NDJSON, worked example and fields, each field described
// (JSON types, allowed values, default, limits, Markdown description). Parsing the spec on the main
// thread blocked the page for hundreds of milliseconds on a phone; here it costs the page nothing.
'use strict';
importScripts('/vendor/js-yaml.js');

let spec = null;

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

// What a property accepts: its JSON types, enum values, default, minimum, maximum and description.
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
    const fields = [...propertiesOf(schema)].map(([name, property]) => ({name, ...describe(property)}));
    list.push({path, tag: item.post.tags?.[0] ?? '', summary: item.post.summary ?? '', required: new Set(schema.required ?? []),
      fields, example: body.example ?? Object.values(body.examples ?? {})[0]?.value ?? {},
      streams: Boolean(ok.content?.['application/x-ndjson'])});
  }
  return list;
}

(async () => {
  try {
    const response = await fetch('/openapi.yaml');
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    spec = jsyaml.load(await response.text());
    postMessage({endpoints: endpointsOf()});
  } catch (error) {
    postMessage({error: error.message});
  }
})();
