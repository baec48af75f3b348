// `npm run prepare`, which npm runs on `npm install` here, on `npm pack` (through prepack), and in this folder when an app
// installs it by path (`npm install ../puzzled/clients/typescript`): builds dist/ (tsc, then the
// esbuild browser bundle). npm links a folder installed by path without installing its
// devDependencies, so on a fresh clone this first installs the pinned build tools from
// package-lock.json (`npm ci`, without scripts so that it does not call this again).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

function npm(...args) {
  const run = spawnSync('npm', args, { cwd: here, stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

if (!existsSync(new URL('node_modules/typescript/package.json', import.meta.url)) ||
    !existsSync(new URL('node_modules/esbuild/package.json', import.meta.url))) {
  console.log('puzzled-client: installing its build tools (npm ci) to build dist/');
  npm('ci', '--ignore-scripts', '--include=dev', '--no-audit', '--no-fund');
}
npm('run', 'build');
npm('run', 'bundle', '--', '--log-level=warning');
