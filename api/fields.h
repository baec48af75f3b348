/* The one validation path for request fields, shared by POST bodies and GET query strings: unknown
 * fields are rejected, duplicates are rejected, declared types are checked, and query values are
 * converted to the declared type first. */
#ifndef PUZZLED_API_FIELDS_H
#define PUZZLED_API_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"

/* Parses a POST body into req->params (a JSON object). Fails with 400 "malformed_json" or
 * "invalid_body". An empty body counts as {}. */
bool fields_parse_body(api_request *req, const char *body, size_t len);

/* Adds one GET query parameter to req->params, converted according to its declared type. Fails on an
 * unknown or repeated name. */
bool fields_add_query(api_request *req, const api_field *fields, const char *name, const char *value);

/* Checks req->params against `fields`: no unknown or repeated names, every value of its declared type.
 * Also applies "time_limit_ms" to req->deadline (at most the configured limit). */
bool fields_check(api_request *req, const api_field *fields);

#endif
