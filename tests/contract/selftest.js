'use strict';
// Shows that the contract test fails when openapi.yaml and the code disagree: runs contract.js
// against copies of openapi.yaml with one known defect each, and requires each run to fail with the
// expected complaint. Usage: node selftest.js PUZZLED_BIN PUZZLED_ALLOC_FAIL_BIN (as contract.js)
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');

const SPEC = fs.readFileSync(path.join(__dirname, '..', '..', 'openapi.yaml'), 'utf8');

// Each defect: what to change in openapi.yaml, and a line the contract test must print.
const DEFECTS = [
  {
    name: 'a code the server answers is missing from a documented list',
    from: 'enum: [unknown_field, duplicate_field, invalid_field]',
    to: 'enum: [unknown_field, invalid_field]',
    expect: 'error code duplicate_field is not documented for GET /healthz 400',
  },
  {
    name: 'a documented code the server never answers',
    from: 'enum: [unknown_field, duplicate_field, invalid_field]',
    to: 'enum: [unknown_field, duplicate_field, invalid_field, conflicting_fields]',
    expect: 'documented but never observed: 400 code conflicting_fields',
  },
  {
    name: 'a response header the spec does not document',
    from: "        Access-Control-Max-Age:\n          $ref: '#/components/headers/AccessControlMaxAge'\n",
    to: '',
    expect: 'header access-control-max-age is not documented',
  },
  {
    name: 'a status the server answers is not documented',
    from: "        '400':\n          $ref: '#/components/responses/BadQuery'\n        '500':\n          $ref: '#/components/responses/OutOfMemory'\n    options:\n      tags: [service]\n      operationId: preflightHealth",
    to: "        '500':\n          $ref: '#/components/responses/OutOfMemory'\n    options:\n      tags: [service]\n      operationId: preflightHealth",
    expect: 'status 400 is not documented for GET /healthz',
  },
  {
    name: 'a body that does not match its schema',
    from: '                    const: ok',
    to: '                    const: up',
    expect: 'value/status must be equal to constant',
  },
  {
    name: 'an object schema open to undocumented properties',
    from: "                type: object\n                additionalProperties: false\n                required: [status]",
    to: "                type: object\n                required: [status]",
    expect: 'every object schema says additionalProperties: false',
  },
  {
    name: 'a progress event whose unit the spec does not list',
    from: 'enum: [subproblems, solutions, puzzles, nodes, items, steps]',
    to: 'enum: [solutions, puzzles, nodes, items, steps]',
    expect: 'progress event {"done":',
  },
  {
    name: 'a method the path does not take',
    from: '  /openapi.yaml:\n    get:',
    to: '  /openapi.yaml:\n    post:',
    expect: 'GET /openapi.yaml answered 200; openapi.yaml says 405',
  },
  {
    name: 'a code of api/errors.h missing from ErrorCode',
    from: '        - heuristic_failed\n',
    to: '',
    expect: 'heuristic_failed is in api/errors.h but not in ErrorCode',
  },
  {
    name: 'an ErrorCode the server cannot send',
    from: '        - not_ready\n',
    to: '        - not_ready\n        - teapot\n',
    expect: 'ErrorCode lists teapot, which api/errors.h does not hold',
  },
  {
    name: 'an operation\'s code outside ErrorCode',
    from: 'enum: [too_large, heuristic_failed]',
    to: 'enum: [too_large, heuristic_failed, tour_lost]',
    expect: 'lists tour_lost, which is not in ErrorCode',
  },
];

// Runs contract.js on a broken copy of the spec; resolves to the complaint, or null when it failed
// as expected.
function tryDefect(bins, dir, defect) {
  if (!SPEC.includes(defect.from)) return Promise.resolve('openapi.yaml no longer contains the text to break');
  const file = path.join(dir, `${DEFECTS.indexOf(defect)}.yaml`);
  fs.writeFileSync(file, SPEC.replace(defect.from, defect.to));
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(__dirname, 'contract.js'), ...bins, file], { maxBuffer: 1 << 24 }, (error, stdout) => {
      if (error && error.code !== 0 && stdout.includes(defect.expect)) resolve(null);
      else resolve(`expected a failed run saying "${defect.expect}"; got exit ${error ? error.code : 0}:\n${stdout.slice(-1500)}`);
    });
  });
}

async function main() {
  const bins = process.argv.slice(2, 4).map((bin) => path.resolve(bin));
  if (bins.length !== 2) throw new Error('usage: node selftest.js PUZZLED_BIN PUZZLED_ALLOC_FAIL_BIN');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'puzzled-contract-'));
  const complaints = await Promise.all(DEFECTS.map((defect) => tryDefect(bins, dir, defect)));
  fs.rmSync(dir, { recursive: true, force: true });
  complaints.forEach((complaint, i) => {
    if (complaint) console.log(`FAIL selftest '${DEFECTS[i].name}': ${complaint}`);
  });
  const failures = complaints.filter(Boolean).length;
  console.log(`contract selftest: ${DEFECTS.length - failures} passed, ${failures} failed`);
  process.exitCode = failures ? 1 : 0;
}

main();
