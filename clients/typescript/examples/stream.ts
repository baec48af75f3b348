// Streaming: the arrangements of a word as NDJSON, one at a time; leaving the loop early stops the
// service's generation.
import { createClient } from 'puzzled-client';

const puzzled = createClient({ baseUrl: process.env['PUZZLED_URL'] ?? 'http://localhost:8080' });
let seen = 0;
for await (const arrangement of puzzled.stream('/permutations', { text: 'puzzled', distinct: true })) {
  if (++seen <= 3) console.log(arrangement);
  if (seen === 1000) break; // the connection closes; the service stops
}
console.log(`read ${seen} arrangements`);
