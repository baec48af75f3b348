/* GET /openapi.yaml: the API description, compiled into the binary from openapi.yaml. */
#include "api/endpoints.h"

extern const char openapi_spec_text[];
extern const size_t openapi_spec_length;

static const api_field fields[] = {{NULL, 0}};

static bool answer_openapi(api_request *req, api_response *res) {
    (void)req;
    res->content_type = "application/yaml";
    res->fixed_body = openapi_spec_text;
    res->fixed_length = openapi_spec_length;
    return true;
}

const api_endpoint openapi_endpoint = {.fields = fields, .handler = answer_openapi};
