/* A growable text buffer with helpers that write JSON text directly: used for every response body,
 * small or streamed, so large lists never build a cJSON tree per item. */
#ifndef PUZZLED_API_JSON_WRITER_H
#define PUZZLED_API_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <gmp.h>

typedef struct json_writer {
    char *data;
    size_t len;
    size_t cap;
    bool out_of_memory; /* set once an allocation failed; later appends are ignored */
    bool borrowed;      /* `data` is the caller's storage (jw_borrow): never freed or grown in place */
} json_writer;

void jw_init(json_writer *w);
/* A writer over the caller's `cap` bytes at `data`, empty: text goes straight there while it fits
 * (with its NUL). Growing past `cap` moves the text into an allocation of the writer's own (so
 * `data` no longer points at the caller's storage), to be released with jw_free. */
void jw_borrow(json_writer *w, char *data, size_t cap);
void jw_free(json_writer *w);
/* Forget the contents, keep the allocation. */
void jw_clear(json_writer *w);
/* Drop the first `n` bytes (already sent), moving the rest to the front. */
void jw_consume(json_writer *w, size_t n);

/* Makes room for `extra` more bytes (plus a NUL) after `len`, for a writer that fills `data + len`
 * itself (a compressor) and then advances `len`. False (and out_of_memory) when that fails. */
bool jw_reserve(json_writer *w, size_t extra);

/* Bytes jw_put_uint writes at most (2^64 - 1 has 20 digits). */
enum { JW_UINT_MAX_DIGITS = 20 };
/* Writes the decimal digits of `v` at `to` and returns the end: for tight loops that jw_reserve room
 * for many numbers once and then format straight into `data + len` (advancing `len` themselves).
 * `to` must have room for JW_UINT_MAX_DIGITS bytes: it may store a word past the digits. */
char *jw_put_uint(char *to, uint64_t v);

void jw_raw(json_writer *w, const char *text, size_t len);
void jw_str(json_writer *w, const char *text); /* raw NUL-terminated text */
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
/* A string key and colon: `"name":`. */
void jw_key(json_writer *w, const char *name);

#endif
