/* Unit tests for api/params: the typed readers of checked fields. Each reader is tried on every value of
 * a small range against the definition it implements (an integer from min to max, one of the choices,
 * k from 0 to n, exactly one of two fields: every combination), on big integers far past 64 bits
 * compared through their decimal text, and each failure must name the field, the allowed values and
 * what was received. Requests go through api/fields.c first, as the server sends them. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/fields.h"
#include "api/params.h"

static const api_field fields[] = {
    {"n", FIELD_INTEGER},    {"k", FIELD_INTEGER},   {"flag", FIELD_BOOLEAN},     {"name", FIELD_STRING},
    {"other", FIELD_STRING}, {"items", FIELD_ARRAY}, {"seed", FIELD_BIG_INTEGER}, {NULL, 0},
};

static const api_limits limits = {.time_limit_ms = 5000};

/* A request whose fields come from `body`, checked as the server checks them. */
static api_request request_with(const char *body) {
    api_request req = {.limits = &limits};
    cr_assert(fields_parse_body(&req, body, strlen(body)), "%s: %s", body, req.error.message);
    cr_assert(fields_check(&req, fields), "%s: %s", body, req.error.message);
    return req;
}

static void expect_failure(const api_request *req, const char *code, const char *field) {
    cr_assert_eq(req->error.status, 400, "status %d: %s", req->error.status, req->error.message);
    cr_assert_str_eq(req->error.code, code, "%s", req->error.message);
    cr_assert_str_eq(req->error.field, field);
}

static void expect_message_has(const api_request *req, const char *part) {
    cr_assert(strstr(req->error.message, part) != NULL, "'%s' not in: %s", part, req->error.message);
}

Test(params, an_integer_is_taken_exactly_when_it_lies_from_min_to_max) {
    for (int value = -6; value <= 6; value++) {
        for (int min = -4; min <= 4; min++) {
            for (int max = min; max <= 4; max++) {
                char body[64];
                snprintf(body, sizeof body, "{\"n\": %d}", value);
                api_request req = request_with(body);
                int64_t out = 99;
                bool in_range = min <= value && value <= max;
                cr_assert_eq(param_int(&req, "n", min, max, 0, &out), in_range, "%d in [%d, %d]", value, min, max);
                if (in_range) {
                    cr_assert_eq(out, value);
                } else {
                    expect_failure(&req, "invalid_field", "n");
                    char allowed[64];
                    snprintf(allowed, sizeof allowed, "from %d to %d, got %d", min, max, value);
                    expect_message_has(&req, allowed);
                }
                cJSON_Delete(req.params);
            }
        }
    }
}

Test(params, the_largest_exact_json_integer_is_read_exactly) {
    api_request req = request_with("{\"n\": 9007199254740991}");
    int64_t out;
    cr_assert(param_int(&req, "n", 0, INT64_MAX, 0, &out));
    cr_assert_eq(out, 9007199254740991LL);
    cJSON_Delete(req.params);
}

Test(params, an_absent_integer_takes_its_default_or_is_missing) {
    api_request req = request_with("{}");
    int64_t out;
    cr_assert(param_int(&req, "n", 1, 10, 5, &out));
    cr_assert_eq(out, 5);
    cr_assert_not(param_present(&req, "n"));
    cr_assert_not(param_int_required(&req, "n", 1, 10, &out));
    expect_failure(&req, "missing_field", "n");
    expect_message_has(&req, "an integer from 1 to 10");
    cJSON_Delete(req.params);

    req = request_with("{\"n\": 3}");
    cr_assert(param_present(&req, "n"));
    cr_assert(param_int_required(&req, "n", 1, 10, &out));
    cr_assert_eq(out, 3);
    cJSON_Delete(req.params);
}

Test(params, booleans_read_their_value_or_the_default) {
    static const char *const bodies[] = {"{}", "{\"flag\": true}", "{\"flag\": false}"};
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        for (int dflt = 0; dflt <= 1; dflt++) {
            api_request req = request_with(bodies[i]);
            bool expected = i == 0 ? dflt : i == 1;
            cr_assert_eq(param_flag(&req, "flag", dflt), expected, "%s with default %d", bodies[i], dflt);
            cJSON_Delete(req.params);
        }
    }
}

Test(params, a_choice_is_its_index_and_anything_else_lists_the_choices) {
    static const char *const modes[] = {"solutions", "count", "first", NULL};
    for (int i = 0; modes[i] != NULL; i++) {
        char body[64];
        snprintf(body, sizeof body, "{\"name\": \"%s\"}", modes[i]);
        api_request req = request_with(body);
        int out = -1;
        cr_assert(param_choice(&req, "name", modes, 0, &out));
        cr_assert_eq(out, i);
        cJSON_Delete(req.params);
    }
    api_request req = request_with("{}");
    int out = -1;
    cr_assert(param_choice(&req, "name", modes, 2, &out));
    cr_assert_eq(out, 2, "absent: the default index");
    cJSON_Delete(req.params);

    static const char *const wrong[] = {"Count", "coun", "counts", "", " count"};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        char body[64];
        snprintf(body, sizeof body, "{\"name\": \"%s\"}", wrong[i]);
        req = request_with(body);
        cr_assert_not(param_choice(&req, "name", modes, 0, &out), "accepted '%s'", wrong[i]);
        expect_failure(&req, "invalid_field", "name");
        expect_message_has(&req, "one of \"solutions\", \"count\", \"first\"");
        char given[64];
        snprintf(given, sizeof given, "got \"%s\"", wrong[i]);
        expect_message_has(&req, given);
        cJSON_Delete(req.params);
    }
}

Test(params, a_long_value_is_quoted_shortened) {
    static const char *const modes[] = {"list", NULL};
    char body[400] = "{\"name\": \"";
    memset(body + strlen(body), 'x', 300);
    strcat(body, "\"}");
    api_request req = request_with(body);
    int out;
    cr_assert_not(param_choice(&req, "name", modes, 0, &out));
    expect_message_has(&req, "...");
    cr_assert_lt(strlen(req.error.message), 150, "%s", req.error.message);
    cJSON_Delete(req.params);
}

/* The decimal text of a big integer read from `body`'s seed. */
static char *big_uint_text(const char *body) {
    api_request req = request_with(body);
    mpz_t value;
    mpz_init(value);
    bool present = false;
    cr_assert(param_big_uint(&req, "seed", value, &present), "%s: %s", body, req.error.message);
    cr_assert(present);
    char *text = mpz_get_str(NULL, 10, value);
    mpz_clear(value);
    cJSON_Delete(req.params);
    return text;
}

Test(params, big_integers_of_any_size_are_read_digit_for_digit) {
    char digits[1002];
    for (int length = 1; length <= 1000; length += 37) {
        for (int i = 0; i < length; i++) digits[i] = (char)('1' + (i * 7 + length) % 9);
        digits[length] = '\0';
        char body[1100];
        snprintf(body, sizeof body, "{\"seed\": \"%s\"}", digits);
        char *text = big_uint_text(body);
        cr_assert_str_eq(text, digits);
        free(text);
    }
    char *text = big_uint_text("{\"seed\": \"000123\"}");
    cr_assert_str_eq(text, "123", "leading zeros");
    free(text);
    text = big_uint_text("{\"seed\": 9007199254740991}");
    cr_assert_str_eq(text, "9007199254740991", "a JSON number up to 2^53-1");
    free(text);
    text = big_uint_text("{\"seed\": 0}");
    cr_assert_str_eq(text, "0");
    free(text);
}

Test(params, big_integers_that_are_not_digits_are_refused) {
    static const char *const bodies[] = {
        "{\"seed\": \"\"}",   "{\"seed\": \"12a\"}", "{\"seed\": \"-1\"}",  "{\"seed\": \"+1\"}",
        "{\"seed\": \" 1\"}", "{\"seed\": \"1 \"}",  "{\"seed\": \"1e3\"}", "{\"seed\": -1}",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        api_request req = request_with(bodies[i]);
        mpz_t value;
        mpz_init(value);
        bool present = false;
        cr_assert_not(param_big_uint(&req, "seed", value, &present), "accepted %s", bodies[i]);
        cr_assert(present);
        expect_failure(&req, "invalid_field", "seed");
        expect_message_has(&req, "a non-negative integer");
        mpz_clear(value);
        cJSON_Delete(req.params);
    }
    api_request req = request_with("{}");
    mpz_t value;
    mpz_init_set_ui(value, 42);
    bool present = true;
    cr_assert(param_big_uint(&req, "seed", value, &present));
    cr_assert_not(present);
    cr_assert_eq(mpz_cmp_ui(value, 42), 0, "absent: left alone");
    mpz_clear(value);
    cJSON_Delete(req.params);
}

Test(params, k_is_taken_from_0_to_n) {
    for (size_t n = 0; n <= 6; n++) {
        for (int k = -2; k <= 8; k++) {
            char body[64];
            snprintf(body, sizeof body, "{\"k\": %d}", k);
            api_request req = request_with(body);
            size_t out = 99;
            bool allowed = k >= 0 && (size_t)k <= n;
            cr_assert_eq(param_k(&req, n, true, 0, &out), allowed, "k %d of %zu", k, n);
            if (allowed) {
                cr_assert_eq(out, (size_t)k);
            } else {
                expect_failure(&req, "invalid_field", "k");
                char range[64];
                snprintf(range, sizeof range, "from 0 to the number of items (%zu)", n);
                expect_message_has(&req, range);
            }
            cJSON_Delete(req.params);
        }
        api_request req = request_with("{}");
        size_t out = 99;
        cr_assert(param_k(&req, n, false, n, &out));
        cr_assert_eq(out, n, "absent and optional: the default");
        cr_assert_not(param_k(&req, n, true, n, &out));
        expect_failure(&req, "missing_field", "k");
        cJSON_Delete(req.params);
    }
}

Test(params, exactly_one_of_two_fields_in_every_combination) {
    for (int has_a = 0; has_a <= 1; has_a++) {
        for (int has_b = 0; has_b <= 1; has_b++) {
            for (int required = 0; required <= 1; required++) {
                char body[64];
                snprintf(body, sizeof body, "{%s%s%s}", has_a ? "\"name\": \"a\"" : "", has_a && has_b ? ", " : "",
                         has_b ? "\"other\": \"b\"" : "");
                api_request req = request_with(body);
                bool ok = param_exactly_one(&req, "name", "other", required);
                if (has_a && has_b) {
                    cr_assert_not(ok, "%s", body);
                    expect_failure(&req, "conflicting_fields", "other");
                    expect_message_has(&req, "either 'name' or 'other', not both");
                } else if (!has_a && !has_b && required) {
                    cr_assert_not(ok, "%s", body);
                    expect_failure(&req, "missing_field", "name");
                } else {
                    cr_assert(ok, "%s required %d: %s", body, required, req.error.message);
                }
                cJSON_Delete(req.params);
            }
        }
    }
}

Test(params, a_rank_not_below_the_total_quotes_the_total_when_it_is_short) {
    api_request req = request_with("{}");
    mpz_t total;
    mpz_init_set_str(total, "479001600", 10);
    cr_assert_not(param_fail_not_below(&req, "rank", total, "permutations"));
    expect_failure(&req, "invalid_field", "rank");
    expect_message_has(&req, "'rank' must be in [0, 479001600): the items have 479001600 permutations");
    cJSON_Delete(req.params);

    for (int digits = 119; digits <= 122; digits++) {
        req = request_with("{}");
        mpz_ui_pow_ui(total, 10, (unsigned long)digits - 1); /* a 1 and digits - 1 zeros */
        cr_assert_not(param_fail_not_below(&req, "rank", total, "combinations"));
        expect_failure(&req, "invalid_field", "rank");
        char said[64];
        snprintf(said, sizeof said, "has %d digits", digits);
        if (digits <= 120) expect_message_has(&req, "the items have 1000");
        else expect_message_has(&req, said);
        cJSON_Delete(req.params);
    }
    mpz_clear(total);
}

Test(params, strings_and_arrays_are_handed_over_or_null) {
    api_request req = request_with("{\"name\": \"cold\", \"items\": [1, \"x\"]}");
    cr_assert_str_eq(param_string(&req, "name"), "cold");
    cr_assert_null(param_string(&req, "other"));
    const cJSON *items = param_array(&req, "items");
    cr_assert_eq(cJSON_GetArraySize(items), 2);
    cr_assert_null(param_array(&req, "absent"));
    cJSON_Delete(req.params);
}
