// withResponse: the HTTP response behind a successful call, for what its headers say beyond the answer
// (ETag, X-Request-Id, Cache-Control, the RateLimit headers). `get` and `post` register the promise
// they return here, with the response it was read from, so `withResponse(puzzled.get(...))` gives
// `{data, response}` while the call keeps its own return type: whatever the call's answer narrows
// to, `data` narrows to the same. The registry holds the promises weakly: a call nobody asks about
// leaves nothing behind.

/** An answer with the response it was read from (its body already read). */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

const responses = new WeakMap<Promise<unknown>, Promise<Response>>();

/** The answer `sent` resolves to, read by `read`, as a promise registered for withResponse. */
export function answered<T>(sent: Promise<Response>, read: (response: Response) => Promise<T>): Promise<T> {
  const data = sent.then(read);
  responses.set(data, sent);
  return data;
}

/** The answer of a `get` or `post` call together with its Response:
 * `const { data, response } = await withResponse(puzzled.get('/healthz'))`. */
export async function withResponse<T>(call: Promise<T>): Promise<WithResponse<T>> {
  const response = responses.get(call);
  if (response === undefined) throw new TypeError('withResponse takes the promise that a get or post call of puzzled-client returned');
  const data = await call;
  return { data, response: await response };
}
