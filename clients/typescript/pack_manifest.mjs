// `npm pack`'s prepack and postpack steps: the tarball's package.json carries no scripts and no
// devDependencies, since an app that installs the tarball gets dist/ already built and would only be
// warned about (or run) a `prepare` whose build tools and sources are not in the tarball. `strip`
// keeps the folder's package.json aside in package.json.packing and writes the trimmed one;
// `restore` puts the kept one back (and so does `strip`, first, after a pack that failed midway).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const manifest = new URL('package.json', import.meta.url);
const kept = new URL('package.json.packing', import.meta.url);

if (existsSync(kept)) renameSync(kept, manifest);
if (process.argv[2] === 'strip') {
  const text = readFileSync(manifest, 'utf8');
  const { scripts, devDependencies, ...packed } = JSON.parse(text);
  writeFileSync(kept, text);
  writeFileSync(manifest, `${JSON.stringify(packed, null, 2)}\n`);
} else if (process.argv[2] !== 'restore') {
  console.error('usage: node pack_manifest.mjs strip|restore');
  process.exit(2);
}
