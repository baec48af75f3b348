// Request and response hooks (in the spirit of ky's `hooks` and openapi-fetch's `use()`): code of the
// caller's that sees every request the client sends and every response it receives, for
// authentication headers, logging, tracing or metrics. Each attempt of a retried call runs them
// again. A hook may change what passes through it, or return another Request or Response to take its
// place; returning nothing keeps it.

export interface Hooks {
  /** Called with each request before it is sent; may set headers on it, or return another Request. */
  onRequest?(request: Request): Request | void | Promise<Request | void>;
  /** Called with each response, a success or not, before the client reads it; may return another
   * Response. `request` is the one that was sent. */
  onResponse?(response: Response, request: Request): Response | void | Promise<Response | void>;
}

/** The request after every hook's onRequest, in the order of `hooks`. */
export async function hookedRequest(hooks: readonly Hooks[], request: Request): Promise<Request> {
  for (const hook of hooks) request = (await hook.onRequest?.(request)) ?? request;
  return request;
}

/** The response after every hook's onResponse, in the order of `hooks`. */
export async function hookedResponse(hooks: readonly Hooks[], response: Response, request: Request): Promise<Response> {
  for (const hook of hooks) response = (await hook.onResponse?.(response, request)) ?? response;
  return response;
}
