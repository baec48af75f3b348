'use strict';
// node tests/lib/npm_installed.js DIR: exits 0 when DIR/node_modules holds exactly the versions
// DIR/package-lock.json pins, else 1 (the suites' run.sh then runs npm ci). Compares versions rather than file times, so a checkout or a touch does not force a
// reinstall, and a machine without the registry keeps working with what it has.
const fs = require('fs');
const path = require('path');

const dir = path.resolve(process.argv[2] ?? '.');
const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
// Only what npm put into node_modules is pinned: the project itself ('') and a folder it links
// (`file:` a path, such as the client an example builds on) are this repository's own code.
const stale = Object.entries(lock.packages).filter(([where, pinned]) => {
  if (!where.startsWith('node_modules/') || pinned.link) return false;
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, where, 'package.json'), 'utf8')).version !== pinned.version;
  } catch (e) {
    return !pinned.optional; // an optional package for another platform may be absent
  }
});
process.exit(stale.length ? 1 : 0);
