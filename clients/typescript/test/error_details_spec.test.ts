// src/error_details.ts held to openapi.yaml both ways: its codes are ErrorCode's, the schemas it names
// are exactly ErrorDetails's members, and ErrorDetails's description names each code it lists.
// (test/contract.test.ts holds the table to the live service's details.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ERROR_DETAILS } from '../src/error_details.js';

const SCHEMAS = parse(readFileSync(new URL('../../../../openapi.yaml', import.meta.url), 'utf8'))['components']['schemas'];

test("the table's codes are the spec's error codes", () => {
  for (const code of Object.keys(ERROR_DETAILS)) assert.ok(SCHEMAS['ErrorCode']['enum'].includes(code), code);
});

test("the table names exactly ErrorDetails's schemas, and the spec's words name each code", () => {
  const members = SCHEMAS['ErrorDetails']['oneOf'].map((member: { $ref: string }) => member.$ref.replace('#/components/schemas/', ''));
  const named = new Set(Object.values<readonly string[]>(ERROR_DETAILS).flat());
  assert.deepEqual([...named].sort(), [...members].sort());
  for (const code of Object.keys(ERROR_DETAILS)) assert.match(SCHEMAS['ErrorDetails']['description'], new RegExp(`\\b${code}\\b`), code);
});
