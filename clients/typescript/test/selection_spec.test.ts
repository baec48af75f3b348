// src/selection.ts held to openapi.yaml both ways, so the table cannot drift from the spec: every
// operation whose 200 answer is a choice (a oneOf of JSON kinds, a drawing, text for a text body) has
// a rule, and every rule is an operation's choice; each rule's field is a request field of the
// operation, its values are the field's values and its default the spec's default, and the kinds the
// rules reach are exactly the kinds of the operation's discriminator. LINE_SELECTION names exactly the
// streams whose lines are an Arrangement or a ShuffleLine of the spec, and the request fields its
// types read (text, items, n) are request fields of each.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ANSWER_SELECTION, LINE_SELECTION } from '../src/selection.js';

type Node = Record<string, any>; // the spec, read as plain JSON values
const SPEC: Node = parse(readFileSync(new URL('../../../../openapi.yaml', import.meta.url), 'utf8'));

/** A node with its $ref followed (JSON pointers into the spec, `~1` for `/`). */
function resolved(node: Node | undefined): Node | undefined {
  if (node?.['$ref'] === undefined) return node;
  const target = (node['$ref'] as string).slice(2).split('/').map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<Node>((at, part) => at[part], SPEC);
  return resolved(target);
}

interface SpecOperation {
  where: string;
  /** The kinds of the JSON answer's discriminator (empty for a single answer). */
  kinds: Set<string>;
  drawing: boolean;
  textBody: boolean;
  /** The request's fields: query parameters or JSON body properties, with their schemas. */
  fields: Map<string, Node>;
}

function specOperations(path: string): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const method of ['get', 'post'] as const) {
    const operation: Node | undefined = SPEC['paths'][path]?.[method];
    const content: Node | undefined = resolved(operation?.['responses']?.['200'])?.['content'];
    if (operation === undefined || content === undefined) continue;
    const json = resolved(content['application/json']?.['schema']);
    const fields = new Map<string, Node>();
    for (const parameter of (operation['parameters'] ?? []).map(resolved)) {
      if (parameter['in'] === 'query') fields.set(parameter['name'], resolved(parameter['schema'])!);
    }
    const body = resolved(operation['requestBody']?.['content']?.['application/json']?.['schema']);
    for (const [name, schema] of Object.entries<Node>(body?.['properties'] ?? {})) fields.set(name, resolved(schema)!);
    operations.push({
      where: `${method.toUpperCase()} ${path}`,
      kinds: new Set(Object.keys(json?.['discriminator']?.['mapping'] ?? {})),
      drawing: 'image/svg+xml' in content,
      textBody: 'text/plain' in (operation['requestBody']?.['content'] ?? {}),
      fields,
    });
  }
  return operations;
}

const isChoice = (operation: SpecOperation) => operation.kinds.size > 1 || operation.drawing || operation.textBody;

test('every operation whose answer is a choice has a rule, and every rule is one', () => {
  const choicePaths = Object.keys(SPEC['paths']).filter((path) => specOperations(path).some(isChoice));
  assert.deepEqual(Object.keys(ANSWER_SELECTION).sort(), choicePaths.sort());
});

test("each rule's fields, values, defaults and kinds are the spec's", () => {
  for (const [path, rule] of Object.entries(ANSWER_SELECTION) as [string, Node][]) {
    const operations = specOperations(path);
    for (const operation of operations) {
      const { where, fields } = operation;
      const reached = new Set<string>();
      if (rule['kind'] !== undefined) {
        const { field, kinds, otherwise } = rule['kind'];
        const schema = fields.get(field);
        assert.ok(schema !== undefined, `${where}: the rule's field ${field} is not a request field`);
        assert.deepEqual(rule['kind'].default, schema['default'], `${where}: ${field}'s default`);
        const values = schema['type'] === 'boolean' ? ['false', 'true'] : (schema['enum'] ?? []).map(String);
        if (otherwise === undefined) assert.deepEqual(Object.keys(kinds).sort(), values.sort(), `${where}: ${field}'s values`);
        else assert.equal(schema['type'], 'integer', `${where}: only a number field has kinds for other values`);
        for (const kind of [...Object.values<string>(kinds), ...(otherwise === undefined ? [] : [otherwise])]) reached.add(kind);
      }
      if (rule['kindFromData']) for (const kind of operation.kinds) reached.add(kind);
      const present = rule['present'];
      if (present !== undefined && fields.has(present.field)) for (const kind of present.kinds) reached.add(kind);
      assert.deepEqual([...reached].sort(), [...operation.kinds].sort(), `${where}: the kinds the rules reach`);
      assert.equal(rule['drawing'] !== undefined, operation.drawing, `${where}: a drawing rule where it answers image/svg+xml`);
      if (rule['drawing'] !== undefined) {
        assert.ok(fields.get(rule['drawing'].field)?.['enum']?.includes(rule['drawing'].value), `${where}: ${rule['drawing'].field} takes ${rule['drawing'].value}`);
      }
    }
    const present = rule['present'];
    if (present !== undefined) assert.ok(operations.some((o) => o.fields.has(present.field)), `${path}: ${present.field} is a request field`);
    assert.equal(rule['text'] === true, operations.some((o) => o.textBody), `${path}: a text rule where it takes a text/plain body`);
  }
});

test('the streams whose lines are made of the request values are the rules of LINE_SELECTION', () => {
  const rules: Record<string, string> = {};
  const kindOfLine: Record<string, string> = { '#/components/schemas/Arrangement': 'arrangement', '#/components/schemas/ShuffleLine': 'shuffle' };
  for (const path of Object.keys(SPEC['paths'])) {
    const content: Node | undefined = resolved(SPEC['paths'][path]['post']?.['responses']?.['200'])?.['content'];
    for (const member of content?.['application/x-ndjson']?.['schema']?.['oneOf'] ?? []) {
      const kind = kindOfLine[member['$ref']];
      if (kind !== undefined) rules[path] = kind;
    }
  }
  assert.deepEqual(Object.entries(LINE_SELECTION).sort(), Object.entries(rules).sort());
  for (const [path, kind] of Object.entries(LINE_SELECTION)) {
    const fields = specOperations(path).find((operation) => operation.where.startsWith('POST'))!.fields;
    for (const field of kind === 'arrangement' ? ['text', 'items'] : ['items', 'n']) assert.ok(fields.has(field), `${path}: ${field}`);
  }
});
