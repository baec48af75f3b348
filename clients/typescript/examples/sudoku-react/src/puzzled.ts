// The one client of the app. The service's address comes from VITE_PUZZLED_URL at build time
// (`VITE_PUZZLED_URL=https://puzzles.example npm run build`); without it, the README's container
// command's address.
import { createClient } from 'puzzled-client';

export const PUZZLED_URL: string = import.meta.env.VITE_PUZZLED_URL ?? 'http://localhost:8080';

export const puzzled = createClient({ baseUrl: PUZZLED_URL, retry: { attempts: 3 } });
