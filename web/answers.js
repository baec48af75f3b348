// The wait both views of the playground show while an answer is awaited (the elapsed time, ticking).
// Asking the service, and reading its answers, streams, progress events and errors, is the TypeScript
// client's (clients/typescript/), loaded as /vendor/puzzled-client.js (the global PuzzledClient).
'use strict';

const Answers = (() => {
  const TICK_EVERY_MS = 100;

  // The time an answer has been awaited, as "1.2 s", handed to show() every TICK_EVERY_MS until the
  // returned stop() is called.
  function elapsedTicker(show) {
    const started = performance.now();
    const timer = setInterval(() => show(`${((performance.now() - started) / 1000).toFixed(1)} s`), TICK_EVERY_MS);
    return () => clearInterval(timer);
  }

  return {elapsedTicker};
})();
