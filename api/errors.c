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

void api_error_clear(api_error *error) {
    error->kind = 0;
    error->status = 0;
    error->code[0] = error->field[0] = error->message[0] = error->details[0] = '\0';
}

void api_error_set(api_error *error, api_error_kind kind, const char *field, const char *fmt, va_list args) {
    error->kind = kind;
    error->status = entries[kind].status;
    snprintf(error->code, sizeof error->code, "%s", entries[kind].code);
    snprintf(error->field, sizeof error->field, "%s", field ? field : "");
    vsnprintf(error->message, sizeof error->message, fmt, args);
    error->details[0] = '\0';
    /* A quoted part of the request ("%.64s") or a full buffer may end in the middle of a character. */
    utf8_repair(error->field);
    utf8_repair(error->message);
}

void api_error_set_details(api_error *error, const char *fmt, va_list args) {
    int length = vsnprintf(error->details, sizeof error->details, fmt, args);
    if (length < 0 || (size_t)length >= sizeof error->details) error->details[0] = '\0';
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
    if (error->details[0] != '\0') {
        jw_str(out, ",\"details\":");
        jw_str(out, error->details);
    }
    jw_str(out, "}}");
}
