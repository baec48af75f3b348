/* UTF-8 as RFC 3629 defines it, strictly: no overlong forms, no surrogates (U+D800-U+DFFF), nothing
 * above U+10FFFF. Requests must be valid UTF-8 text (JSON is, by RFC 8259), and so must every answer,
 * including error messages that quote a part of the request. */
#ifndef PUZZLED_CORE_UTF8_H
#define PUZZLED_CORE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes the sequence at s[0..len) (len >= 1); returns its length (1-4) with *code set, or 0 when it
 * is invalid or cut short. */
size_t utf8_decode_one(const unsigned char *s, size_t len, uint32_t *code);

/* True when text[0..len) is valid UTF-8 (NUL bytes included as U+0000). */
bool utf8_is_valid(const char *text, size_t len);

/* Replaces, in the NUL-terminated `text`, every byte that does not start a valid sequence with '?':
 * for text cut at a byte count (snprintf's "%.64s", a full buffer) in the middle of a character. */
void utf8_repair(char *text);

#endif
