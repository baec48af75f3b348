/* Readers that turn checked request fields into typed values, with range errors that name the field
 * and the allowed values (see params.h). */
#include "api/params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common/decimal.h"

static const cJSON *field_value(const api_request *req, const char *name) {
    return cJSON_GetObjectItemCaseSensitive(req->params, name);
}

/* The value's JSON text, shortened for an error message. */
static void describe_value(const cJSON *value, char *out, size_t size) {
    json_writer text;
    bb_init(&text);
    jw_cjson(&text, value);
    if (text.len + 1 > size && size > 4) {
        snprintf(out, size, "%.*s...", (int)(size - 4), text.data ? text.data : "");
    } else {
        snprintf(out, size, "%s", text.data ? text.data : "");
    }
    bb_free(&text);
}

bool param_present(const api_request *req, const char *name) { return field_value(req, name) != NULL; }

bool param_int(api_request *req, const char *name, int64_t min, int64_t max, int64_t dflt, int64_t *out) {
    const cJSON *value = field_value(req, name);
    if (value == NULL) {
        *out = dflt;
        return true;
    }
    double d = value->valuedouble;
    if (d < (double)min || d > (double)max) {
        char given[48];
        describe_value(value, given, sizeof given);
        api_fail(req, API_INVALID_FIELD, name, "'%s' must be an integer from %lld to %lld, got %s", name,
                 (long long)min, (long long)max, given);
        return api_fail_range(req, (long long)min, (long long)max, (long long)d);
    }
    *out = (int64_t)d;
    return true;
}

bool param_int_required(api_request *req, const char *name, int64_t min, int64_t max, int64_t *out) {
    if (!param_present(req, name)) {
        api_fail(req, API_MISSING_FIELD, name, "'%s' is required: an integer from %lld to %lld", name, (long long)min,
                 (long long)max);
        return api_fail_details(req, "{\"min\":%lld,\"max\":%lld}", (long long)min, (long long)max);
    }
    return param_int(req, name, min, max, 0, out);
}

bool param_flag(const api_request *req, const char *name, bool dflt) {
    const cJSON *value = field_value(req, name);
    return value == NULL ? dflt : cJSON_IsTrue(value);
}

bool param_choice(api_request *req, const char *name, const char *const *choices, int dflt, int *out) {
    const cJSON *value = field_value(req, name);
    if (value == NULL) {
        *out = dflt;
        return true;
    }
    for (int i = 0; choices[i] != NULL; i++) {
        if (strcmp(value->valuestring, choices[i]) == 0) {
            *out = i;
            return true;
        }
    }
    char allowed[256] = "";
    size_t used = 0;
    for (int i = 0; choices[i] != NULL && used < sizeof allowed; i++) {
        used += (size_t)snprintf(allowed + used, sizeof allowed - used, "%s\"%s\"", i ? ", " : "", choices[i]);
    }
    char given[48];
    describe_value(value, given, sizeof given);
    return api_fail(req, API_INVALID_FIELD, name, "'%s' must be one of %s; got %s", name, allowed, given);
}

const char *param_string(const api_request *req, const char *name) {
    const cJSON *value = field_value(req, name);
    return value != NULL ? value->valuestring : NULL;
}

const cJSON *param_array(const api_request *req, const char *name) { return field_value(req, name); }

bool param_big_uint_check(api_request *req, const char *name, mpz_t out, const char **digits, bool *present) {
    const cJSON *value = field_value(req, name);
    *present = value != NULL;
    *digits = NULL;
    if (value == NULL) return true;
    bool valid;
    if (cJSON_IsNumber(value)) {
        valid = value->valuedouble >= 0;
        if (valid) mpz_set_d(out, value->valuedouble);
    } else {
        const char *text = value->valuestring;
        size_t length = strspn(text, "0123456789");
        valid = length > 0 && text[length] == '\0';
        if (valid) *digits = text;
    }
    if (valid) return true;
    char given[48];
    describe_value(value, given, sizeof given);
    return api_fail(req, API_INVALID_FIELD, name,
                    "'%s' must be a non-negative integer, as a JSON number or a string of decimal digits; "
                    "got %s",
                    name, given);
}

bool param_big_uint(api_request *req, const char *name, mpz_t out, bool *present) {
    const char *digits;
    if (!param_big_uint_check(req, name, out, &digits, present)) return false;
    if (digits != NULL) decimal_read(out, digits);
    return true;
}

bool param_exactly_one(api_request *req, const char *a, const char *b, bool one_required) {
    bool has_a = param_present(req, a), has_b = param_present(req, b);
    if (has_a && has_b) return api_fail(req, API_CONFLICTING_FIELDS, b, "give either '%s' or '%s', not both", a, b);
    if (one_required && !has_a && !has_b)
        return api_fail(req, API_MISSING_FIELD, a, "one of '%s' or '%s' is required", a, b);
    return true;
}

bool param_fail_not_below(api_request *req, const char *name, const mpz_t total, const char *what) {
    size_t digits = mpz_sizeinbase(total, 10);
    if (digits > 120)
        return api_fail(req, API_INVALID_FIELD, name,
                        "'%s' must be in [0, total), where total, the number of %s of the items, has %zu "
                        "digits; the %s given is not below it",
                        name, what, digits, name);
    char *text = mpz_get_str(NULL, 10, total);
    if (text == NULL) return api_fail_out_of_memory(req);
    api_fail(req, API_INVALID_FIELD, name, "'%s' must be in [0, %s): the items have %s %s", name, text, text, what);
    free(text);
    return false;
}

bool param_k(api_request *req, size_t n, bool required, size_t dflt, size_t *out) {
    int64_t k = 0;
    if (!param_present(req, "k")) {
        if (required)
            return api_fail(req, API_MISSING_FIELD, "k",
                            "'k' is required: an integer from 0 to the number of items (%zu)", n);
        *out = dflt;
        return true;
    }
    if (!param_int(req, "k", 0, (int64_t)n, 0, &k))
        return api_fail(req, API_INVALID_FIELD, "k", "'k' must be an integer from 0 to the number of items (%zu)", n);
    *out = (size_t)k;
    return true;
}
