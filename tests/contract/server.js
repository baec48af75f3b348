'use strict';
// Starting and stopping puzzled for the contract test, and sending it one raw HTTP request.
const { spawn } = require('child_process');
const http = require('http');
const zlib = require('zlib');

// Guards a request never answered; the slowest example takes a second or two on a busy machine.
const REQUEST_TIMEOUT_MS = 20000;
// A guard against a server that never starts: the sanitized allocation-failure build loads its word lists
// slowly, and on a busy machine took more than 10 s.
const START_TIMEOUT_MS = 60000;

// Starts `bin` on a free loopback port; resolves to { url, log(), reported(n), stop() } once it prints
// its address. reported(n) resolves once the server has written n lines "alloc-failure: ..." in all
// (the allocation-failure build writes one when an armed request has ended: docs/testing.md), or
// false after REQUEST_TIMEOUT_MS; reports() is how many it has written so far.
function startServer(bin, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--host', '127.0.0.1', '--port', '0', '--client-rate', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let partialLine = '';
    let reports = 0;
    let reportWaiters = [];
    let exited = null;
    const exitWaiters = [];
    child.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-20000);
      const lines = (partialLine + d).split('\n');
      partialLine = lines.pop();
      reports += lines.filter((line) => line.startsWith('alloc-failure: ')).length;
      const due = reportWaiters.filter((w) => reports >= w.count);
      reportWaiters = reportWaiters.filter((w) => reports < w.count);
      due.forEach((w) => w.done(true));
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      exitWaiters.forEach((w) => w(exited));
      reject(new Error(`puzzled exited before listening (${code ?? signal}): ${stderr.slice(-2000)}`));
    });
    const timer = setTimeout(
      () => reject(new Error(`puzzled did not print "listening on" within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    );
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        url: m[1],
        log: () => stderr,
        reports: () => reports,
        reported: (count) => new Promise((done) => {
          if (reports >= count) return done(true);
          reportWaiters.push({ count, done });
          setTimeout(() => done(false), REQUEST_TIMEOUT_MS).unref();
        }),
        // SIGTERM, then the exit status (a clean stop is status 0).
        stop: () => new Promise((done) => {
          if (exited) return done(exited);
          exitWaiters.push(done);
          child.kill('SIGTERM');
          setTimeout(() => { if (!exited) child.kill('SIGKILL'); }, 15000).unref();
        }),
      });
    });
  });
}

// Sends one request exactly as described:
//   { method, path, query: [[name, value], ...], headers: {}, body: string|null,
//     chunked: bool (no Content-Length), expectContinue: bool (send the body only after 100 Continue) }
// Resolves to { status, headers (lowercase names; repeated ones joined), body: Buffer (inflated when
// Content-Encoding is gzip) } or { error }.
function send(baseUrl, request) {
  const url = new URL(baseUrl);
  const search = new URLSearchParams(request.query).toString();
  const body = request.body === null || request.body === undefined ? null : Buffer.from(request.body);
  const headers = { ...request.headers };
  if (body && !request.chunked) headers['Content-Length'] = String(body.length);
  if (request.expectContinue) headers.Expect = '100-continue';
  return new Promise((resolve) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: request.method,
      path: request.path + (search ? `?${search}` : ''),
      headers,
      agent: false,
      timeout: REQUEST_TIMEOUT_MS,
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let body = Buffer.concat(chunks);
        if (res.headers['content-encoding'] === 'gzip' && request.method !== 'HEAD') {
          // Judged as the client reads it: inflated, and only if it is one complete gzip member.
          try {
            body = zlib.gunzipSync(body);
          } catch (e) {
            resolve({ error: `the gzip body does not inflate: ${e.message}` });
            req.destroy();
            return;
          }
        }
        resolve({ status: res.statusCode, headers: res.headers, body });
        req.destroy(); // a refused body (413 before 100 Continue) was never sent
      });
      res.on('error', (e) => resolve({ error: `reading the response: ${e.message}` }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', (e) => resolve({ error: e.message }));
    if (body && request.expectContinue) {
      req.on('continue', () => req.end(body));
      req.flushHeaders();
    } else {
      if (body && request.chunked) {
        // Two writes before end(): Node then sends Transfer-Encoding: chunked.
        req.write(body.subarray(0, 1));
        req.write(body.subarray(1));
      } else if (body) {
        req.write(body);
      }
      req.end();
    }
  });
}

module.exports = { startServer, send };
