// The opt-in retry: a request answered 503 `overloaded` or 429 `rate_limited` is sent again after the
// Retry-After the service gave, up to a number of attempts. Nothing else is retried (a 400 stays a 400;
// `not_ready` means a draining server that a load balancer should route around). The wait is
// abortable, and a Retry-After longer than the caller accepts ends the retries at once rather than
// trying early.
import { PuzzledError } from './errors.js';

export interface RetryOptions {
  /** How many times to send the request in all, the first included (1 means no retry). */
  attempts: number;
  /** The longest Retry-After to wait for; a longer one fails at once (default 30 000 ms). */
  maxDelayMs?: number;
}

const DEFAULT_MAX_DELAY_MS = 30_000;
/** The wait when a retryable answer has no Retry-After (the service always sends one). */
const DELAY_WITHOUT_RETRY_AFTER_MS = 1_000;

function isRetryable(error: unknown): error is PuzzledError {
  return error instanceof PuzzledError &&
    ((error.status === 503 && error.code === 'overloaded') || (error.status === 429 && error.code === 'rate_limited'));
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(signal.reason); return; }
    const onAbort = () => { clearTimeout(timer); reject(signal?.reason); };
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Runs `send` until it succeeds, fails with something not retryable, or the attempts run out. */
export async function withRetry<T>(send: () => Promise<T>, retry: RetryOptions | undefined, signal?: AbortSignal): Promise<T> {
  const attempts = Math.max(1, retry?.attempts ?? 1);
  const maxDelayMs = retry?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      const delayMs = error.retryAfter === undefined ? DELAY_WITHOUT_RETRY_AFTER_MS : error.retryAfter * 1000;
      if (delayMs > maxDelayMs) throw error;
      await sleep(delayMs, signal);
    }
  }
}
