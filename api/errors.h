/* Every error puzzled answers with, in one table: the kind a handler names, its HTTP status, the
 * machine-readable code clients match on, and what it means. The table is the single source for the
 * status + code pairs (the README's error table and openapi.yaml's error codes list the same codes).
 * An answer is {"error": {"code", "message", "field"?, "details"?}}; the message is written at the call
 * site and says what was wrong and what is allowed, for a person; `details`, where a page needs them,
 * say it for a program (the allowed range, the conflicting cells, the unknown word). openapi.yaml's
 * ErrorCode lists the same codes as the table (tests/contract/error_codes.js holds the two together). */
#ifndef PUZZLED_API_ERRORS_H
#define PUZZLED_API_ERRORS_H

#include <stdarg.h>

#include "base/json_writer.h"

/* A table laid out by hand: clang-format leaves it as it is. */
// clang-format off
/*      kind                      status  code                   meaning */
#define API_ERRORS(X)                                                                                   \
    X(API_MALFORMED_JSON,         400, "malformed_json",         "the body is not valid JSON")          \
    X(API_INVALID_BODY,           400, "invalid_body",           "the body is JSON but not an object")  \
    X(API_UNKNOWN_FIELD,          400, "unknown_field",          "a field the endpoint does not take")  \
    X(API_DUPLICATE_FIELD,        400, "duplicate_field",        "a field given twice")                 \
    X(API_INVALID_FIELD,          400, "invalid_field",          "a field of the wrong type or range")  \
    X(API_MISSING_FIELD,          400, "missing_field",          "a required field is absent")          \
    X(API_CONFLICTING_FIELDS,     400, "conflicting_fields",     "fields that cannot be given together") \
    X(API_INVALID_REQUEST,        400, "invalid_request",        "the request breaks HTTP/1.1 rules")   \
    X(API_NOT_FOUND,              404, "not_found",              "no endpoint at that path")            \
    X(API_METHOD_NOT_ALLOWED,     405, "method_not_allowed",     "the path does not take that method")  \
    X(API_NOT_ACCEPTABLE,         406, "not_acceptable",         "Accept excludes every type the path answers with") \
    X(API_PAYLOAD_TOO_LARGE,      413, "payload_too_large",      "the body is over --max-body")         \
    X(API_URI_TOO_LONG,           414, "uri_too_long",           "the target is over --max-url")        \
    X(API_TOO_LARGE,              422, "too_large",              "a size over a maximum, or work that cannot finish in time") \
    X(API_LENGTH_MISMATCH,        422, "length_mismatch",        "ladder ends of different lengths")    \
    X(API_UNKNOWN_WORD,           422, "unknown_word",           "a word-ladder end is not a word")     \
    X(API_RATE_LIMITED,           429, "rate_limited",           "a client over its share of the work") \
    X(API_HEURISTIC_FAILED,       422, "heuristic_failed",       "the chosen heuristic found no tour")  \
    X(API_CONFLICTING_GIVENS,     422, "conflicting_givens",     "a Sudoku value twice in one unit")    \
    X(API_NO_SOLUTION,            422, "no_solution",            "a Sudoku puzzle that cannot be solved") \
    X(API_INTERNAL_ERROR,         500, "internal_error",         "the OS gave no randomness; a handler failed silently (a bug)") \
    X(API_OUT_OF_MEMORY,          500, "out_of_memory",          "an allocation failed")                \
    X(API_UNSUPPORTED_TRANSFER_CODING, 501, "unsupported_transfer_coding", "a Transfer-Encoding but chunked") \
    X(API_DEADLINE_EXCEEDED,      503, "deadline_exceeded",      "the time limit ran out")              \
    X(API_NO_DICTIONARY,          503, "no_dictionary",          "no built-in word list was loaded")    \
    X(API_OVERLOADED,             503, "overloaded",             "the work queue or stream budget is full, or stopping") \
    X(API_NOT_READY,              503, "not_ready",              "/readyz: not admitting new work now")
// clang-format on

typedef enum api_error_kind {
#define API_ERROR_KIND(kind, status, code, meaning) kind,
    API_ERRORS(API_ERROR_KIND)
#undef API_ERROR_KIND
} api_error_kind;

/* Room for an error's details: a JSON object of a few numbers, or of the cells of one Sudoku unit
 * (at most 25 [row, column] pairs), or of one echoed word (at most 256 bytes, escaped). */
enum { API_ERROR_DETAILS_BYTES = 2048 };

typedef struct api_error {
    api_error_kind kind;
    int status;                            /* from the table; 0 while there is no error */
    char code[48];                         /* from the table */
    char field[64];                        /* the field to blame, or "" */
    char message[1024];                    /* says what was wrong and what is allowed */
    char details[API_ERROR_DETAILS_BYTES]; /* a JSON object's text for programs, or "" (none) */
} api_error;

/* No error (status 0). Only the kind and the status are read until api_error_set() writes the rest
 * whole, so the text is not cleared past its first bytes. */
void api_error_clear(api_error *error);

/* Fills `error` with the kind's status and code, `field` (may be NULL) and the formatted message; no
 * details. */
void api_error_set(api_error *error, api_error_kind kind, const char *field, const char *fmt, va_list args);

/* Sets the error's details to the formatted text, which must be one JSON object. Text that does not
 * fit API_ERROR_DETAILS_BYTES leaves no details (never half an object); the message still says it all. */
void api_error_set_details(api_error *error, const char *fmt, va_list args);

/* The error's JSON body, {"error":{"code","message"[,"field"][,"details"]}}, appended to `out` (whose
 * out_of_memory then says whether it is whole). */
void api_error_write(const api_error *error, json_writer *out);

#endif
