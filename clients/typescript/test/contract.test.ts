// The contract's types and ends against a live puzzled: every error code of api/errors.h, read at test
// time, compiles as a PuzzledError['code'] (the TypeScript compiler checks a file written from the
// header's table, and a control file with a code the server has not, which must fail; that the spec's
// ErrorCode holds the table and nothing else is the contract stage's tests/contract/error_codes.js);
// errors arrive with their codes and machine-readable details, an NDJSON stream stopped by its time
// limit is thrown as the PuzzledError its last line describes, and a body whose transfer broke off is
// a PuzzledError `stream_cut`, never a bare TypeError. Each error's details are those the client's
// table gives its code (src/error_details.ts), read after a check of the code with no cast; and a
// misspelt field is refused by the compiler with a message naming it and the fields there are.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import ts from 'typescript';
import { parse } from 'yaml';
import { ERROR_DETAILS } from '../src/error_details.js';
import { createClient, PuzzledError } from '../src/index.js';
import { liveClient } from './server.js';

const SCHEMAS = parse(readFileSync(new URL('../../../../openapi.yaml', import.meta.url), 'utf8'))['components']['schemas'];
const TABLE = readFileSync(new URL('../../../../api/errors.h', import.meta.url), 'utf8');
const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));

/** The codes of api/errors.h's table: X(KIND, STATUS, "code", "meaning"). */
const tableCodes = () => [...TABLE.matchAll(/X\(API_\w+,\s*\d{3},\s*"([a-z_]+)"/g)].map((m) => m[1]!);

/** The compiler's messages on each of `files` (name to source), type-checked with the package's tsconfig.json. */
function typeErrors(files: Record<string, string>): Record<string, string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'puzzled-codes-'));
  try {
    const paths = Object.entries(files).map(([name, source]) => {
      writeFileSync(join(folder, name), source);
      return join(folder, name);
    });
    const config = ts.getParsedCommandLineOfConfigFile(join(PACKAGE, 'tsconfig.json'), { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
    assert.ok(config !== undefined);
    const { rootDir: _sourcesOnly, ...options } = config.options; // the checked files are outside src/
    const program = ts.createProgram(paths, { ...options, noEmit: true });
    const errors: Record<string, string[]> = {};
    for (const [name, path] of Object.entries(files).map(([name], i) => [name, paths[i]!] as const)) {
      errors[name] = ts.getPreEmitDiagnostics(program, program.getSourceFile(path)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    }
    return errors;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const client = liveClient();

test('every error code of api/errors.h compiles as a PuzzledError code', () => {
  const codes = tableCodes();
  assert.ok(codes.length > 20, 'the table of api/errors.h was not read');
  const index = JSON.stringify(join(PACKAGE, 'src/index.js'));
  const asCodes = (list: string[]) => `import type { PuzzledError } from ${index};\n` +
    `export const codes = ${JSON.stringify(list)} as const satisfies readonly PuzzledError['code'][];\n`;
  const errors = typeErrors({ 'server_codes.ts': asCodes(codes), 'control.ts': asCodes(['not_a_code_of_the_server']) });
  assert.deepEqual(errors['server_codes.ts'], []);
  assert.equal(errors['control.ts']!.length, 1, 'a code the server has not must not compile');
});

test('live errors arrive with their codes', async () => {
  // each call made only when its turn comes: a rejection made earlier would go unhandled meanwhile
  const cases: [() => Promise<unknown>, PuzzledError['code'], string][] = [
    [() => client().get('/queens', { n: 8, mode: 'count', format: 'svg' }), 'conflicting_fields', 'format'],
    [() => client().post('/queens', { n: 8, limt: 3 } as never), 'unknown_field', 'limt'],
    [() => client().post('/word-ladder', { from: 'cold' } as never), 'missing_field', 'to'],
    [() => client().post('/sudoku/solve', { puzzle: '1..1............' }), 'conflicting_givens', 'puzzle'],
  ];
  for (const [call, code, field] of cases) {
    await assert.rejects(call(), (error: unknown) => {
      assert.ok(error instanceof PuzzledError);
      assert.deepEqual([error.code, error.field], [code, field]);
      return true;
    });
  }
});

test('a misspelt field is refused by the compiler with its name and the fields there are', () => {
  const index = JSON.stringify(join(PACKAGE, 'src/index.js'));
  const calls = {
    'query.ts': ["void client.get('/permutations', { text: 'abc', limt: 3 });", ['text', 'items', 'limit', 'offset', 'count_only']],
    'body.ts': ["void client.post('/queens', { n: 8, limt: 3 });", ['n', 'mode', 'limit', 'placed']],
    'stream.ts': ["void client.stream('/combinations', { text: 'abcd', k: 2, limt: 3 });", ['text', 'k', 'limit']],
  } as const;
  const errors = typeErrors(Object.fromEntries(Object.entries(calls).map(([name, [call]]) =>
    [name, `import { createClient } from ${index};\nconst client = createClient({ baseUrl: 'http://localhost:8080' });\n${call}\n`])));
  for (const [name, [, fields]] of Object.entries(calls)) {
    assert.equal(errors[name]!.length, 1, `${name}: ${errors[name]!.join('\n---\n')}`);
    const message = errors[name]![0]!;
    assert.match(message, /'limt' is not a field of this request; its fields are/, name);
    for (const field of fields) assert.ok(message.includes(`"${field}"`), `${name}: ${field} in ${message}`);
    assert.doesNotMatch(message, /assignable to type 'never'/, name);
  }
});

test("each code's details are of a schema the client's table gives it, read with no cast", async () => {
  const cases: [() => Promise<unknown>, keyof typeof ERROR_DETAILS][] = [
    [() => client().post('/queens', { n: 0 }), 'invalid_field'],
    [() => client().post('/queens', {} as never), 'missing_field'],
    [() => client().post('/queens', { n: 33 }), 'too_large'],
    [() => client().post('/queens', { n: 30, mode: 'count' }), 'too_large'],
    [() => client().post('/sudoku/solve', { puzzle: '1..1............' }), 'conflicting_givens'],
    [() => client().post('/word-ladder', { from: 'cold', to: 'qzqz' }), 'unknown_word'],
    [() => client().post('/word-ladder', { from: 'cold', to: 'warmth' }), 'length_mismatch'],
    [() => client().post('/queens', { n: 8 }, { headers: { Accept: 'application/xml' } }), 'not_acceptable'],
  ];
  const reached = new Set<string>();
  for (const [call, code] of cases) {
    await assert.rejects(call(), (error: unknown) => {
      assert.ok(error instanceof PuzzledError && error.code === code, `${code}: ${String(error)}`);
      const keys = Object.keys(error.details ?? {});
      const schema = ERROR_DETAILS[code].find((name) => {
        const { required, properties } = SCHEMAS[name];
        return required.every((key: string) => keys.includes(key)) && keys.every((key) => key in properties);
      });
      assert.ok(schema !== undefined, `${code}: details ${JSON.stringify(error.details)} fit none of ${ERROR_DETAILS[code].join(', ')}`);
      reached.add(schema);
      return true;
    });
  }
  assert.deepEqual([...reached].sort(), [...new Set(Object.values<readonly string[]>(ERROR_DETAILS).flat())].sort());
  await assert.rejects(client().post('/sudoku/solve', { puzzle: '1..1............' }), (error: unknown) => {
    if (!(error instanceof PuzzledError) || error.code !== 'conflicting_givens') return false;
    assert.deepEqual(error.details?.cells, [[0, 0], [0, 3]]); // typed by the code: no cast
    return true;
  });
});

test('an Accept that excludes every type of a path is a 406 naming them, nothing computed', async () => {
  await assert.rejects(client().get('/healthz', undefined, { headers: { Accept: 'application/json;q=0' } }), (error: unknown) => {
    if (!(error instanceof PuzzledError) || error.code !== 'not_acceptable') return false;
    assert.equal(error.status, 406);
    assert.deepEqual(error.details?.available, ['application/json']); // typed by the code: no cast
    return true;
  });
});

test('a word-ladder page tells an unknown word by its code and reads the word from the details', async () => {
  await assert.rejects(client().post('/word-ladder', { from: 'cold', to: 'qzqz' }), (error: unknown) => {
    assert.ok(error instanceof PuzzledError);
    if (error.code !== 'unknown_word') return false; // compiles: unknown_word is one of the codes
    assert.deepEqual(error.details, { word: 'qzqz', letters: 4 });
    return true;
  });
});

test('a range error carries its range as details', async () => {
  await assert.rejects(client().post('/queens', { n: 33 }), (error: unknown) =>
    error instanceof PuzzledError && error.code === 'too_large' &&
    JSON.stringify(error.details) === JSON.stringify({ min: 1, max: 32, received: 33 }));
});

test('an NDJSON stream stopped by its time limit is thrown as a PuzzledError deadline_exceeded', async () => {
  // all solutions of 20 queens (39,029,188,884) cannot end; the pause at the first line outlasts the
  // 2 s time limit, and the server generates only as the socket takes more
  let lines = 0;
  await assert.rejects((async () => {
    for await (const solution of client().stream('/queens', { n: 20, time_limit_ms: 2000 })) {
      assert.equal(solution.length, 20);
      if (lines++ === 0) await sleep(3000);
    }
  })(), (error: unknown) => error instanceof PuzzledError && error.code === 'deadline_exceeded' && error.status === 200);
  assert.ok(lines > 0);
});

// A 200 whose body gives `text`, then fails as fetch's body does when the transfer breaks off.
function cutResponse(text: string, type: string): Response {
  let pulls = 0;
  return new Response(new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulls++ === 0) controller.enqueue(new TextEncoder().encode(text));
      else controller.error(new TypeError('terminated'));
    },
  }), { status: 200, headers: { 'Content-Type': type } });
}

test('a JSON body that broke off is a PuzzledError stream_cut', async () => {
  // a transfer cut as the service cuts a JSON list: some bytes, then the body errors as fetch's does
  const cutFetch: typeof fetch = async () => cutResponse('{"n":20,"solutions":[[0,2', 'application/json');
  const cut = createClient({ baseUrl: 'http://cut.invalid', fetch: cutFetch });
  await assert.rejects(cut.post('/queens', { n: 20 }), (error: unknown) =>
    error instanceof PuzzledError && error.code === 'stream_cut' && error.status === 200);
  const cutLines: typeof fetch = async () => cutResponse('[0,1,2]\n[0,2', 'application/x-ndjson');
  const lines: unknown[] = [];
  await assert.rejects((async () => {
    for await (const line of createClient({ baseUrl: 'http://cut.invalid', fetch: cutLines }).stream('/permutations', { items: [0, 1, 2] })) lines.push(line);
  })(), (error: unknown) => error instanceof PuzzledError && error.code === 'stream_cut');
  assert.deepEqual(lines, [[0, 1, 2]]);
});
