'use strict';
// The error codes of openapi.yaml held to the server's table (api/errors.h), both ways: the spec's
// ErrorCode enum holds exactly the table's codes; every code an operation, a stream line or an error
// schema lists (an enum or const narrowing error.code) is one of them; and every code of the table is
// listed by some operation, so no code the server sends is missing from the places a client reads.
const fs = require('fs');

const ERROR_CODE = '/components/schemas/ErrorCode';

// The codes of api/errors.h's table, in its order: X(KIND, STATUS, "code", "meaning").
function tableCodes(headerText) {
  return [...headerText.matchAll(/X\(API_\w+,\s*\d{3},\s*"([a-z_]+)"/g)].map((m) => m[1]);
}

// [{ where, codes }]: every enum or const on the `code` of an `error` object, anywhere in the document.
function listedCodes(node, where = '#', found = []) {
  if (!node || typeof node !== 'object') return found;
  const code = node.error && node.error.properties && node.error.properties.code;
  if (code && (Array.isArray(code.enum) || code.const !== undefined)) {
    found.push({ where: `${where}/error`, codes: Array.isArray(code.enum) ? code.enum : [code.const] });
  }
  for (const [key, value] of Object.entries(node)) listedCodes(value, `${where}/${key}`, found);
  return found;
}

// The problems (strings) of the spec's error codes against the table in `headerFile`.
function errorCodeProblems(spec, headerFile) {
  const table = new Set(tableCodes(fs.readFileSync(headerFile, 'utf8')));
  const problems = [];
  if (table.size === 0) return [`no error codes read from ${headerFile} (has its table's layout changed?)`];
  const enumNode = spec.at(ERROR_CODE);
  const spec_codes = new Set((enumNode && enumNode.enum) || []);
  if (spec_codes.size === 0) return [`openapi.yaml has no enum at #${ERROR_CODE}`];
  for (const code of table) if (!spec_codes.has(code)) problems.push(`${code} is in api/errors.h but not in ErrorCode`);
  for (const code of spec_codes) if (!table.has(code)) problems.push(`ErrorCode lists ${code}, which api/errors.h does not hold (the server cannot send it)`);
  const listed = new Set();
  for (const { where, codes } of listedCodes(spec.doc)) {
    for (const code of codes) {
      listed.add(code);
      if (!spec_codes.has(code)) problems.push(`${where} lists ${code}, which is not in ErrorCode`);
    }
  }
  for (const code of spec_codes) if (!listed.has(code)) problems.push(`no operation lists ErrorCode's ${code} among its error codes`);
  return problems;
}

module.exports = { errorCodeProblems, tableCodes };
