// The live tests' puzzled: the binary named by PUZZLED_BIN started on a free loopback port (port 0,
// the address read from its "listening on" line), stopped with SIGTERM after the tests; a test
// file's client on one such puzzled; and one metric read from its /metrics.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before } from 'node:test';
import { createClient, type PuzzledClient } from '../src/index.js';

export interface Puzzled {
  url: string;
  /** SIGTERM, then the exit code (0 for a clean stop). */
  stop(): Promise<number | null>;
}

const START_TIMEOUT_MS = 15_000;

export function startPuzzled(extraArguments: string[] = []): Promise<Puzzled> {
  const bin = process.env['PUZZLED_BIN'];
  if (!bin) throw new Error('PUZZLED_BIN must name the puzzled binary to test');
  const child = spawn(bin, ['--host', '127.0.0.1', '--port', '0', '--client-rate', '0', ...extraArguments], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`puzzled did not start: ${stderr}`)); }, START_TIMEOUT_MS);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`puzzled exited (${code}) before listening: ${stderr}`)); });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({ url: match[1]!, stop: () => { child.kill('SIGTERM'); return exited; } });
    });
  });
}

/** A client on a puzzled of the test file's own, started before its tests and stopped cleanly after
 * them (exit code 0); the function returns the client once the tests run. */
export function liveClient(): () => PuzzledClient {
  let puzzled: Puzzled;
  let client: PuzzledClient;
  before(async () => {
    puzzled = await startPuzzled();
    client = createClient({ baseUrl: puzzled.url });
  });
  after(async () => {
    assert.equal(await puzzled.stop(), 0);
  });
  return () => client;
}

/** The value of an unlabelled metric in the text of /metrics. */
export function metric(metricsText: string, name: string): number {
  const line = metricsText.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`/metrics has no ${name}`);
  return Number(line.slice(name.length + 1));
}
