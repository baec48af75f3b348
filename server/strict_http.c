/* See strict_http.h. */
#include "server/strict_http.h"

#include <stdarg.h>
#include <string.h>
#include <strings.h>

typedef struct field_census {
    unsigned hosts;
    bool content_length;
    const char *transfer_encoding; /* the last one, or NULL */
    const char *bad_name;          /* a name with whitespace or control bytes */
    const char *bad_value_name;    /* the name of a field whose value holds control bytes */
} field_census;

static bool has_control_or_space(const char *text) {
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++)
        if (*p <= 0x20 || *p == 0x7f) return true;
    return false;
}

static bool has_control(const char *text) {
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++)
        if ((*p < 0x20 && *p != '\t') || *p == 0x7f) return true;
    return false;
}

static enum MHD_Result count_field(void *cls, enum MHD_ValueKind kind, const char *name, const char *value) {
    (void)kind;
    field_census *census = cls;
    if (strcasecmp(name, "Host") == 0) census->hosts++;
    if (strcasecmp(name, "Content-Length") == 0) census->content_length = true;
    if (strcasecmp(name, "Transfer-Encoding") == 0) census->transfer_encoding = value;
    if (census->bad_name == NULL && has_control_or_space(name)) census->bad_name = name;
    if (census->bad_value_name == NULL && value != NULL && has_control(value)) census->bad_value_name = name;
    return MHD_YES;
}

static bool refuse(api_error *error, api_error_kind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool refuse(api_error *error, api_error_kind kind, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    api_error_set(error, kind, NULL, fmt, args);
    va_end(args);
    return false;
}

bool strict_http_check(struct MHD_Connection *connection, const char *version, api_error *error) {
    field_census census = {0};
    MHD_get_connection_values(connection, MHD_HEADER_KIND, count_field, &census);
    if (strcmp(version, MHD_HTTP_VERSION_1_1) == 0 && census.hosts != 1)
        return refuse(error, API_INVALID_REQUEST,
                      "an HTTP/1.1 request must carry exactly one Host header; this one has %u", census.hosts);
    if (census.bad_name != NULL)
        return refuse(error, API_INVALID_REQUEST,
                      "a header name holds whitespace or a control character (no space may come before the colon)");
    if (census.bad_value_name != NULL)
        return refuse(error, API_INVALID_REQUEST, "a header value holds a control character (a bare CR, say)");
    if (census.transfer_encoding != NULL && strcasecmp(census.transfer_encoding, "chunked") != 0)
        return refuse(error, API_UNSUPPORTED_TRANSFER_CODING, "the only transfer coding this server takes is chunked");
    if (census.transfer_encoding != NULL && census.content_length)
        return refuse(error, API_INVALID_REQUEST,
                      "a request may not carry both Content-Length and Transfer-Encoding; send one");
    return true;
}
