// Debian's chromium driven by playwright-core (no browser download), and a static server for a site
// built into a folder, on a free loopback port: what the client's browser tests share
// (browser.test.ts, sudoku_react.test.ts, package.test.ts).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env['PUZZLED_CHROMIUM'] ?? '/usr/bin/chromium';
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

export interface Site {
  /** The site's root, "http://127.0.0.1:PORT/". */
  url: string;
  close(): Promise<void>;
}

/** Serves the files under `root` (index.html for "/"); anything else is a 404. */
export async function serveFolder(root: string): Promise<Site> {
  const server = createServer((request, response) => {
    const path = normalize(request.url === '/' ? '/index.html' : request.url ?? '');
    try {
      const body = readFileSync(join(root, path));
      response.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
