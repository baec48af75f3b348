// The README's ten-line example: a rank with exact big integers, then the 92 queens counted (mode
// count answers the count: its type says so, no narrowing by hand).
import { createClient, toBigInt } from 'puzzled-client';

const puzzled = createClient({ baseUrl: process.env['PUZZLED_URL'] ?? 'http://localhost:8080' });
const { rank, total } = await puzzled.post('/permutation/rank', { text: 'mississippi' });
console.log(`rank ${rank} of ${total}; ${toBigInt(total) - toBigInt(rank) - 1n} come after it`);
const queens = await puzzled.get('/queens', { n: 8, mode: 'count' });
console.log(`8 queens: ${queens.total} solutions`);
