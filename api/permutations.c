/* /permutations — placeholder until the endpoint's issue lands: answers 501 so routing can be tested. */
#include "api/endpoints.h"

static const api_field fields[] = {{NULL, 0}};

static bool answer_not_implemented(api_request *req, api_response *res) {
    (void)res;
    return api_fail(req, 501, "not_implemented", NULL, "/permutations is not implemented yet");
}

const api_endpoint permutations_endpoint = {fields, answer_not_implemented};
