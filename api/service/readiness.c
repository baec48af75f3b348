/* GET /readyz: the readiness probe. 200 while the server admits new work; 503 "not_ready" while it
 * stops (draining) or while its work queue is full, so a load balancer or Kubernetes sends requests
 * elsewhere until it has room. Liveness is /healthz, which answers 200 however busy the workers are. */
#include "api/endpoints.h"

static const api_field fields[] = {{NULL, 0}};

static bool answer_readiness(api_request *req, api_response *res) {
    if (!req->ready)
        return api_fail(req, API_NOT_READY, NULL,
                        "not admitting new work: the server is stopping or its work queue is full; retry shortly "
                        "or on another replica");
    jw_str(&res->body, "{\"status\":\"ready\"}");
    return true;
}

const api_endpoint readiness_endpoint = {.fields = fields, .handler = answer_readiness, .varies = api_always_varies};
