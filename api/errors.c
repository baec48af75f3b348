/* The error table's lookups (see api/errors.h). */
#include "api/errors.h"

#include <stdio.h>

#include "core/common/utf8.h"

typedef struct error_entry {
    int status;
    const char *code;
} error_entry;

static const error_entry entries[] = {
#define API_ERROR_ENTRY(kind, status, code, meaning) [kind] = {status, code},
    API_ERRORS(API_ERROR_ENTRY)
#undef API_ERROR_ENTRY
};

void api_error_set(api_error *error, api_error_kind kind, const char *field, const char *fmt, va_list args) {
    error->kind = kind;
    error->status = entries[kind].status;
    snprintf(error->code, sizeof error->code, "%s", entries[kind].code);
    snprintf(error->field, sizeof error->field, "%s", field ? field : "");
    vsnprintf(error->message, sizeof error->message, fmt, args);
    error->estimate = (api_estimate){.given = false};
    /* A quoted part of the request ("%.64s") or a full buffer may end in the middle of a character. */
    utf8_repair(error->field);
    utf8_repair(error->message);
}

void api_error_write(const api_error *error, json_writer *out) {
    jw_str(out, "{\"error\":{\"code\":");
    jw_cstring(out, error->code);
    jw_str(out, ",\"message\":");
    jw_cstring(out, error->message);
    if (error->field[0] != '\0') {
        jw_str(out, ",\"field\":");
        jw_cstring(out, error->field);
    }
    if (error->estimate.given) {
        jw_str(out, ",\"estimated_ms\":");
        jw_uint(out, error->estimate.estimated_ms);
        jw_str(out, ",\"time_limit_ms\":");
        jw_uint(out, error->estimate.time_limit_ms);
        jw_str(out, ",\"largest_that_fits\":");
        jw_int(out, error->estimate.largest_that_fits);
    }
    jw_str(out, "}}");
}
