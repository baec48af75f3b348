/* Readers for the fields of a checked request: each applies the default when the field is absent,
 * checks the range, and on failure records a 400 whose message names the field and the allowed
 * values, returning false. Types were already checked by the server (api/fields.c). */
#ifndef PUZZLED_API_PARAMS_H
#define PUZZLED_API_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include <gmp.h>

#include "api/api.h"

bool param_present(const api_request *req, const char *name);

/* An integer in [min, max]; `dflt` when absent. */
bool param_int(api_request *req, const char *name, int64_t min, int64_t max, int64_t dflt, int64_t *out);
/* The same, but absence is a 400 "missing_field". */
bool param_int_required(api_request *req, const char *name, int64_t min, int64_t max, int64_t *out);

/* A boolean field's value, `dflt` when absent. It cannot fail: the server checked the type. */
bool param_flag(const api_request *req, const char *name, bool dflt);

/* One of `choices` (NULL-terminated); *out is its index; `dflt` (an index) when absent. */
bool param_choice(api_request *req, const char *name, const char *const *choices, int dflt, int *out);

/* The string value, or NULL when absent. */
const char *param_string(const api_request *req, const char *name);

/* The array value, or NULL when absent. */
const cJSON *param_array(const api_request *req, const char *name);

/* A non-negative integer given as a JSON number or a string of decimal digits, of any size.
 * `*present` tells whether the field was there (`out` is then set; else left alone). */
bool param_big_uint(api_request *req, const char *name, mpz_t out, bool *present);

/* param_big_uint in two steps, for a caller with other work to do while a long digit string is read:
 * checks the field as param_big_uint does and sets `out` when it is a JSON number; when it is a
 * string, `*digits` is that string (valid decimal digits), still to be read into `out` with
 * decimal_read (core/common/decimal.h), else NULL. */
bool param_big_uint_check(api_request *req, const char *name, mpz_t out, const char **digits, bool *present);

/* A length `k` of arrangements or combinations of `n` items: an integer from 0 to n. Absent: `dflt`,
 * or a 400 "missing_field" when `required`. */
bool param_k(api_request *req, size_t n, bool required, size_t dflt, size_t *out);

/* The 400 for `name` (a rank) at or above `total`, the number of `what` (say "combinations") of the
 * items, quoting the total when it is short enough to read. Returns false. */
bool param_fail_not_below(api_request *req, const char *name, const mpz_t total, const char *what);

/* Fails with a 400 "conflicting_fields" when both fields are present, or "missing_field" when
 * `one_required` and neither is. */
bool param_exactly_one(api_request *req, const char *a, const char *b, bool one_required);

#endif
