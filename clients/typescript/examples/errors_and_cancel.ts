// Errors and cancelling: a PuzzledError names the field to blame; an AbortSignal cancels any call
// (here a time-out on a stream), and a client may retry 503 overloaded and 429 after Retry-After.
import { createClient, PuzzledError } from 'puzzled-client';

const puzzled = createClient({ baseUrl: process.env['PUZZLED_URL'] ?? 'http://localhost:8080', retry: { attempts: 3 } });
try {
  await puzzled.get('/queens', { n: 0 });
} catch (error) {
  if (!(error instanceof PuzzledError)) throw error;
  console.log(`${error.status} ${error.code} on field ${error.field}: ${error.message}`);
}

const signal = AbortSignal.timeout(200);
let lines = 0;
try {
  for await (const board of puzzled.stream('/queens', { n: 14 }, { signal })) if (board.length === 14) lines++;
} catch (error) {
  if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
}
console.log(`cancelled after ${lines} boards`);
