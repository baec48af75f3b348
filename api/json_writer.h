/* The JSON writer: functions that write JSON text straight into a byte buffer (byte_buffer.h), used for
 * every response body, small or streamed, so large lists never build a cJSON tree per item. */
#ifndef PUZZLED_API_JSON_WRITER_H
#define PUZZLED_API_JSON_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <gmp.h>

#include "api/byte_buffer.h"

/* A JSON writer is a byte buffer: made, grown, cleared and freed with bb_* (byte_buffer.h), raw bytes
 * appended with bb_append; the jw_* functions below append JSON text to it. */
typedef byte_buffer json_writer;

/* Bytes jw_put_uint writes at most (2^64 - 1 has 20 digits). */
enum { JW_UINT_MAX_DIGITS = 20 };
/* Writes the decimal digits of `v` at `to` and returns the end: for tight loops that bb_reserve room
 * for many numbers once and then format straight into `data + len` (advancing `len` themselves).
 * `to` must have room for JW_UINT_MAX_DIGITS bytes: it may store a word past the digits. */
char *jw_put_uint(char *to, uint64_t v);

void jw_str(json_writer *w, const char *text); /* a piece of JSON text as it is, e.g. `,"seed":` */
void jw_char(json_writer *w, char c);
void jw_int(json_writer *w, int64_t v);   /* a JSON number */
void jw_uint(json_writer *w, uint64_t v); /* a JSON number */
/* A JSON string literal, quoted and escaped; `text` is UTF-8 of `len` bytes. */
void jw_string(json_writer *w, const char *text, size_t len);
void jw_cstring(json_writer *w, const char *text);
/* A big integer as a JSON string of decimal digits, e.g. "479001600". */
void jw_mpz_string(json_writer *w, const mpz_t v);
/* A uint64 as a JSON string of decimal digits. */
void jw_uint_string(json_writer *w, uint64_t v);
/* Any cJSON value in compact form (numbers that are integers up to 2^53 print exactly). */
void jw_cjson(json_writer *w, const cJSON *value);
/* A number as jw_cjson() writes an integer up to 2^53, and true; false, writing nothing, for any
 * other number (which jw_cjson() prints as cJSON does). */
bool jw_exact_integer(json_writer *w, double number);
/* A string key and colon: `"name":`. */
void jw_key(json_writer *w, const char *name);

#endif
