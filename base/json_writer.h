/* The JSON writer: functions that write JSON text straight into a byte buffer (byte_buffer.h), used for
 * every response body, small or streamed, so large lists never build a cJSON tree per item. */
#ifndef PUZZLED_BASE_JSON_WRITER_H
#define PUZZLED_BASE_JSON_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/byte_buffer.h"

/* A JSON writer is a byte buffer: made, grown, cleared and freed with bb_* (byte_buffer.h), raw bytes
 * appended with bb_append; the jw_* functions below append JSON text to it. */
typedef byte_buffer json_writer;

/* Bytes jw_put_uint writes at most (2^64 - 1 has 20 digits). */
enum { JW_UINT_MAX_DIGITS = 20 };
/* jw_put_uint's table: the four digits of every number below JW_GROUP, "0000" to "9999", back to back
 * (then room for a 4-byte read from inside the last one). */
enum { JW_GROUP = 10000, JW_GROUP_DIGITS = 4 };
extern const char jw_four_digits[JW_GROUP_DIGITS * JW_GROUP + JW_GROUP_DIGITS];

/* How many decimal digits `v` has (1 for 0). */
size_t jw_uint_digits(uint64_t v);

/* jw_put_uint for any value (the loop, one four-digit group per division); jw_put_uint sends it those
 * from 10^8. */
char *jw_put_wide_uint(char *to, uint64_t v);

/* The digits of `group` (below JW_GROUP) without its leading zeros, at least one: 4 bytes stored, the
 * first 4 - (leading zeros) of them the digits. */
static inline char *jw_put_leading_group(char *to, uint32_t group) {
    unsigned leading_zeros = group >= 1000 ? 0 : group >= 100 ? 1 : group >= 10 ? 2 : 3;
    memcpy(to, jw_four_digits + JW_GROUP_DIGITS * group + leading_zeros, JW_GROUP_DIGITS);
    return to + JW_GROUP_DIGITS - leading_zeros;
}

/* Writes the decimal digits of `v` at `to` and returns the end: for tight loops that bb_reserve room
 * for many numbers once and then format straight into `data + len` (advancing `len` themselves).
 * `to` must have room for JW_UINT_MAX_DIGITS bytes: it may store bytes past the digits. Below 10^8
 * (nearly all that streams: shuffled values, columns, squares) inline and without a loop: one
 * division by a constant (a multiplication) and two loads from a table of four-digit groups, the usual
 * digit-table method of printing integers with groups of four rather than two. It replaced an
 * eight-digits-in-one-word (SWAR) computation whose chain of dependent multiplications was slower
 * (docs/performance.md#the-seeded-shuffle). */
static inline char *jw_put_uint(char *to, uint64_t v) {
    if (v < JW_GROUP) return jw_put_leading_group(to, (uint32_t)v);
    if (v >= (uint64_t)JW_GROUP * JW_GROUP) return jw_put_wide_uint(to, v);
    uint32_t high = (uint32_t)(v / JW_GROUP), low = (uint32_t)v - high * JW_GROUP;
    to = jw_put_leading_group(to, high);
    memcpy(to, jw_four_digits + JW_GROUP_DIGITS * low, JW_GROUP_DIGITS);
    return to + JW_GROUP_DIGITS;
}

void jw_str(json_writer *w, const char *text); /* a piece of JSON text as it is, e.g. `,"seed":` */
void jw_char(json_writer *w, char c);
void jw_int(json_writer *w, int64_t v);   /* a JSON number */
void jw_uint(json_writer *w, uint64_t v); /* a JSON number */
/* A JSON string literal, quoted and escaped; `text` is UTF-8 of `len` bytes. */
void jw_string(json_writer *w, const char *text, size_t len);
void jw_cstring(json_writer *w, const char *text);
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
