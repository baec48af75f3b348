/* GET /healthz: a liveness answer for load balancers and container health checks. */
#include "api/endpoints.h"

static const api_field fields[] = {{NULL, 0}};

static bool answer_health(api_request *req, api_response *res) {
    (void)req;
    jw_str(&res->body, "{\"status\":\"ok\"}");
    return true;
}

const api_endpoint health_endpoint = {.fields = fields, .handler = answer_health, .varies = api_always_varies};
