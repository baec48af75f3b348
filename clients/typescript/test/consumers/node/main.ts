// A Node 20 program as a team would write it after `npm install puzzled-client-X.tgz`: the package's
// main entry and its browser bundle (the `./browser` subpath) by name, their types, hooks and
// withResponse, against the service at PUZZLED_URL. Prints what test/package.test.ts expects.
import { createClient, PuzzledError, toBigInt, withResponse } from 'puzzled-client';
import * as bundle from 'puzzled-client/browser';

declare const process: { env: Record<string, string | undefined> };
const baseUrl = process.env['PUZZLED_URL'] ?? 'http://localhost:8080';

const ids: string[] = [];
const puzzled = createClient({
  baseUrl,
  hooks: [{ onRequest: (request) => { request.headers.set('X-Request-Id', `consumer-${ids.length}`); ids.push(request.url); } }],
});
const { data, response } = await withResponse(puzzled.post('/permutation/rank', { permutation: [3, 1, 2] }));
console.log(`rank ${toBigInt(data.rank)} of ${data.total}, request ${response.headers.get('X-Request-Id')}`);
try {
  await puzzled.get('/queens', { n: 0 });
} catch (error) {
  if (!(error instanceof PuzzledError)) throw error;
  console.log(`${error.status} ${error.code} on ${error.field}`);
}
const fromBundle = await bundle.createClient({ baseUrl }).get('/healthz');
console.log(`bundle: ${JSON.stringify(fromBundle)}, ${Object.keys(bundle).sort().join(' ')}`);
