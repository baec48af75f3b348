// A page as a team would write it after `npm install puzzled-client-X.tgz` in a new Vite project:
// the package by name (Vite resolves its exports map), a JSON call with a request hook, the progress
// events of a rank read through the client, and a typed error, against the service at
// VITE_PUZZLED_URL. Writes one line per call into #answers, then marks the body done;
// test/package.test.ts reads them.
import { createClient, PuzzledError, withResponse } from 'puzzled-client';

const puzzled = createClient({
  baseUrl: import.meta.env.VITE_PUZZLED_URL ?? 'http://localhost:8080',
  hooks: [{ onRequest: (request) => { request.headers.set('X-Request-Id', 'vite-consumer'); } }],
});
const lines: string[] = [];
const { data, response } = await withResponse(puzzled.post('/permutation/rank', { permutation: [3, 1, 2] }));
lines.push(`rank ${data.rank} of ${data.total}, request ${response.headers.get('X-Request-Id')}`);
const kinds = new Set<string>();
const reversed = Array.from({ length: 16 }, (_, i) => 16 - i);
for await (const event of puzzled.progress('/permutation/rank', { permutation: reversed })) {
  kinds.add(event.type);
  if (event.type === 'result') lines.push(`${[...kinds].join(' then ')}: rank ${event.result.rank}`);
}
try {
  await puzzled.get('/queens', { n: 0 });
} catch (error) {
  if (!(error instanceof PuzzledError)) throw error;
  lines.push(`${error.status} ${error.code} on ${error.field}`);
}
document.querySelector('#answers')!.textContent = lines.join('\n');
document.body.dataset['done'] = 'true';
