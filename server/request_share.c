/* A computing request's place in its client's share (server/clients.h): taken once the request is
 * known to compute, refused 429 when the client is over its --client-rate or has its share in
 * progress, and given back once, when its answer has gone out whole or its work has stopped. The
 * requests that answer at once (health, errors, 304) take none. */
#include "server/request_internal.h"

bool share_take(request_context *ctx, enum MHD_Result *refused) {
    client_verdict verdict = clients_admit(ctx->server->clients, ctx->client, &ctx->quota);
    if (verdict == CLIENT_RATE_LIMITED) {
        *refused = answer_fail(
            ctx, API_RATE_LIMITED, NULL,
            "this client (%s) is over its --client-rate of %u computing requests a second; retry after %u s",
            ctx->client, ctx->server->config->client_rate, ctx->quota.retry_after_s);
        return false;
    }
    if (verdict == CLIENT_BUSY) {
        *refused = answer_fail(ctx, API_RATE_LIMITED, NULL,
                               "this client (%s) already has its share of computing requests in progress; retry "
                               "after one ends",
                               ctx->client);
        return false;
    }
    ctx->holds_share = true;
    return true;
}

/* The request's share is the I/O thread's until the request ends, and the last reference's after. */
void share_give_back(request_context *ctx) {
    if (!ctx->holds_share) return;
    ctx->holds_share = false;
    clients_release(ctx->server->clients, ctx->client);
}
