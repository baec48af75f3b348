/* One validation path for request fields, from a POST body or a GET query string (see fields.h). */
#include "api/fields.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/json_allocation.h"
#include "core/common/utf8.h"

#define EXACT_INTEGER_BOUND ((double)API_MAX_EXACT_INTEGER + 1) /* 2^53: above it a double may already be rounded */

static const api_field time_limit_field = {"time_limit_ms", FIELD_INTEGER};

static const api_field *find_field(const api_field *fields, const char *name) {
    if (strcmp(name, time_limit_field.name) == 0) return &time_limit_field;
    for (const api_field *f = fields; f->name != NULL; f++) {
        if (strcmp(f->name, name) == 0) return f;
    }
    return NULL;
}

static bool fail_unknown(api_request *req, const api_field *fields, const char *name) {
    char allowed[400] = "";
    size_t used = 0;
    for (const api_field *f = fields; f->name != NULL && used < sizeof allowed; f++) {
        used += (size_t)snprintf(allowed + used, sizeof allowed - used, "%s, ", f->name);
    }
    if (used < sizeof allowed) snprintf(allowed + used, sizeof allowed - used, "%s", time_limit_field.name);
    return api_fail(req, API_UNKNOWN_FIELD, name, "unknown field '%.64s'; the fields allowed here are: %s", name,
                    allowed);
}

static bool fail_duplicate(api_request *req, const char *name) {
    return api_fail(req, API_DUPLICATE_FIELD, name, "field '%.64s' is given more than once; give it once", name);
}

/* Requests are UTF-8 text (RFC 8259 for JSON; the query string decoded): a name or string that is
 * not would be echoed into answers (messages, items) that must be valid UTF-8 themselves. */
static bool fail_name_not_utf8(api_request *req) {
    return api_fail(req, API_UNKNOWN_FIELD, NULL,
                    "a field name is not valid UTF-8 text; names and string values must be UTF-8");
}

static bool fail_value_not_utf8(api_request *req, const char *name) {
    return api_fail(req, API_INVALID_FIELD, name, "'%s' holds text that is not valid UTF-8; strings must be UTF-8",
                    name);
}

static bool is_utf8(const char *text) { return utf8_is_valid(text, strlen(text)); }

/* True when every string in `value` (object keys too, at any depth) is valid UTF-8. */
static bool text_is_utf8(const cJSON *value) {
    if (cJSON_IsString(value)) return is_utf8(value->valuestring);
    for (const cJSON *child = value->child; child != NULL; child = child->next) {
        if (cJSON_IsObject(value) && !is_utf8(child->string)) return false;
        if (!text_is_utf8(child)) return false;
    }
    return true;
}

bool fields_parse_body(api_request *req, const char *body, size_t len) {
    size_t start = 0;
    while (start < len && strchr(" \t\r\n", body[start]) != NULL && body[start] != '\0') start++;
    if (start == len) {
        req->params = cJSON_CreateObject();
        return req->params != NULL || api_fail_out_of_memory(req);
    }
    const char *end = NULL;
    unsigned failures = json_allocation_failures();
    cJSON *doc = cJSON_ParseWithLengthOpts(body, len, &end, 0);
    if (doc == NULL && json_allocation_failures() != failures) return api_fail_out_of_memory(req);
    if (doc != NULL) {
        size_t rest = (size_t)(end - body);
        while (rest < len && strchr(" \t\r\n", body[rest]) != NULL && body[rest] != '\0') rest++;
        if (rest != len) {
            cJSON_Delete(doc);
            doc = NULL;
        }
    }
    if (doc == NULL) {
        size_t at = end != NULL && end >= body ? (size_t)(end - body) : 0;
        return api_fail(req, API_MALFORMED_JSON, NULL,
                        "the request body is not valid JSON (problem near byte %zu, nesting at most 1000 "
                        "levels); send one JSON object of fields, such as {\"n\": 8}",
                        at);
    }
    if (!cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        return api_fail(req, API_INVALID_BODY, NULL,
                        "the request body must be a JSON object of fields, such as {\"n\": 8}");
    }
    req->params = doc;
    return true;
}

/* True when `text` is exactly a JSON number (no spaces, no hex, no inf/nan); stores its value. */
static bool parse_json_number(const char *text, double *value) {
    const char *p = text;
    if (*p == '-') p++;
    if (*p < '0' || *p > '9') return false;
    while (*p >= '0' && *p <= '9') p++;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9') return false;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (*p < '0' || *p > '9') return false;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p != '\0') return false;
    *value = strtod(text, NULL);
    return isfinite(*value);
}

/* A query value as a scalar: with `numbers_and_booleans`, a number or true/false when it reads as
 * one; else the string itself. */
static cJSON *query_scalar(const char *text, bool numbers_and_booleans) {
    double number;
    if (numbers_and_booleans) {
        if (parse_json_number(text, &number)) return cJSON_CreateNumber(number);
        if (strcmp(text, "true") == 0) return cJSON_CreateTrue();
        if (strcmp(text, "false") == 0) return cJSON_CreateFalse();
    }
    return cJSON_CreateString(text);
}

/* "a,b,c" as a JSON array; "" is the empty array. */
static cJSON *query_array(const char *text, bool numbers_and_booleans) {
    cJSON *array = cJSON_CreateArray();
    if (array == NULL || *text == '\0') return array;
    char *copy = strdup(text);
    if (copy == NULL) {
        cJSON_Delete(array);
        return NULL;
    }
    char *piece = copy;
    for (;;) {
        char *comma = strchr(piece, ',');
        if (comma != NULL) *comma = '\0';
        cJSON *element = query_scalar(piece, numbers_and_booleans);
        if (element == NULL || !cJSON_AddItemToArray(array, element)) {
            cJSON_Delete(element);
            cJSON_Delete(array);
            array = NULL;
            break;
        }
        if (comma == NULL) break;
        piece = comma + 1;
    }
    free(copy);
    return array;
}

bool fields_add_query(api_request *req, const api_field *fields, const char *name, const char *value) {
    if (!is_utf8(name)) return fail_name_not_utf8(req);
    const api_field *field = find_field(fields, name);
    if (field == NULL) return fail_unknown(req, fields, name);
    if (cJSON_GetObjectItemCaseSensitive(req->params, name) != NULL) return fail_duplicate(req, name);
    if (value == NULL) value = "";
    if (!is_utf8(value)) return fail_value_not_utf8(req, name);
    cJSON *converted;
    switch (field->type) {
    case FIELD_INTEGER:
    case FIELD_BOOLEAN: converted = query_scalar(value, true); break;
    case FIELD_ARRAY: converted = query_array(value, true); break;
    case FIELD_STRING_ARRAY:
    case FIELD_STRING_OR_STRING_ARRAY: converted = query_array(value, false); break;
    case FIELD_STRING:
    case FIELD_BIG_INTEGER:
    default: converted = cJSON_CreateString(value); break;
    }
    /* named by the field's own name, which lives as long as the process: cJSON keeps no copy */
    if (converted == NULL || !cJSON_AddItemToObjectCS(req->params, field->name, converted)) {
        cJSON_Delete(converted);
        return api_fail_out_of_memory(req);
    }
    return true;
}

static bool is_exact_integer(const cJSON *value) {
    double d = value->valuedouble;
    return cJSON_IsNumber(value) && d == floor(d) && fabs(d) < EXACT_INTEGER_BOUND;
}

static const char *json_type_name(const cJSON *value) {
    if (cJSON_IsNumber(value)) return "a number";
    if (cJSON_IsString(value)) return "a string";
    if (cJSON_IsBool(value)) return "a boolean";
    if (cJSON_IsArray(value)) return "an array";
    if (cJSON_IsObject(value)) return "an object";
    return "null";
}

static bool check_type(api_request *req, const api_field *field, const cJSON *value) {
    const char *name = field->name;
    switch (field->type) {
    case FIELD_INTEGER:
        if (is_exact_integer(value)) return true;
        if (cJSON_IsNumber(value) && value->valuedouble == floor(value->valuedouble))
            return api_fail(req, API_INVALID_FIELD, name,
                            "'%s' is too large: integers must be at most 2^53-1 (9007199254740991)", name);
        return api_fail(req, API_INVALID_FIELD, name, "'%s' must be an integer, got %s", name,
                        cJSON_IsNumber(value) ? "a fraction" : json_type_name(value));
    case FIELD_BOOLEAN:
        if (cJSON_IsBool(value)) return true;
        return api_fail(req, API_INVALID_FIELD, name, "'%s' must be true or false, got %s", name,
                        json_type_name(value));
    case FIELD_STRING:
        if (cJSON_IsString(value)) return true;
        return api_fail(req, API_INVALID_FIELD, name, "'%s' must be a string, got %s", name, json_type_name(value));
    case FIELD_ARRAY:
        if (cJSON_IsArray(value)) return true;
        return api_fail(req, API_INVALID_FIELD, name, "'%s' must be an array, got %s", name, json_type_name(value));
    case FIELD_STRING_OR_STRING_ARRAY:
        if (cJSON_IsString(value)) return true;
        /* fall through - else an array of strings */
    case FIELD_STRING_ARRAY:
        if (cJSON_IsArray(value)) {
            int index = 0;
            for (const cJSON *element = value->child; element != NULL; element = element->next, index++) {
                if (!cJSON_IsString(element))
                    return api_fail(req, API_INVALID_FIELD, name,
                                    "'%s' must be an array of strings; element %d (from 0) is %s", name, index,
                                    json_type_name(element));
            }
            return true;
        }
        return api_fail(req, API_INVALID_FIELD, name, "'%s' must be %san array of strings, got %s", name,
                        field->type == FIELD_STRING_OR_STRING_ARRAY ? "a string or " : "", json_type_name(value));
    case FIELD_BIG_INTEGER:
        if (cJSON_IsString(value) || is_exact_integer(value)) return true;
        if (cJSON_IsNumber(value) && value->valuedouble == floor(value->valuedouble))
            return api_fail(req, API_INVALID_FIELD, name,
                            "'%s' is above 2^53-1 (9007199254740991), where JSON numbers lose precision: "
                            "give it as a string of decimal digits",
                            name);
        return api_fail(req, API_INVALID_FIELD, name,
                        "'%s' must be an integer, as a JSON number or a string of decimal digits; got %s", name,
                        cJSON_IsNumber(value) ? "a fraction" : json_type_name(value));
    }
    return true;
}

static bool apply_time_limit(api_request *req, const cJSON *value) {
    double limit = req->limits->time_limit_ms;
    if (value->valuedouble < 1 || value->valuedouble > limit)
        return api_fail(req, API_INVALID_FIELD, time_limit_field.name,
                        "'time_limit_ms' must be an integer from 1 to %u (the server's --time-limit-ms)",
                        req->limits->time_limit_ms);
    req->time_limit.at_ns = deadline_after_ms((uint64_t)value->valuedouble).at_ns; /* its flags stay */
    req->time_limit_ms = (uint64_t)value->valuedouble;
    req->deadline = req->time_limit;
    return true;
}

bool fields_check(api_request *req, const api_field *fields) {
    for (const cJSON *item = req->params->child; item != NULL; item = item->next) {
        if (!is_utf8(item->string)) return fail_name_not_utf8(req);
        const api_field *field = find_field(fields, item->string);
        if (field == NULL) return fail_unknown(req, fields, item->string);
        for (const cJSON *earlier = req->params->child; earlier != item; earlier = earlier->next) {
            if (strcmp(earlier->string, item->string) == 0) return fail_duplicate(req, item->string);
        }
        if (!text_is_utf8(item)) return fail_value_not_utf8(req, field->name);
        if (!check_type(req, field, item)) return false;
        if (field == &time_limit_field && !apply_time_limit(req, item)) return false;
    }
    return true;
}
