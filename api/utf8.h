/* Strict UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), checked where
 * text enters (request bodies, query names and values) so that no answer ever echoes invalid bytes,
 * and made safe where it leaves (error messages cut at a byte budget). */
#ifndef PUZZLED_API_UTF8_H
#define PUZZLED_API_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes the sequence at s (at most `avail` bytes); returns its length, or 0 when invalid. */
size_t utf8_decode(const unsigned char *s, size_t avail, uint32_t *code);

/* True when the `len` bytes of text are valid UTF-8; otherwise stores the first bad byte's offset. */
bool utf8_valid(const char *text, size_t len, size_t *bad_at);

/* Replaces, in place, every byte of the NUL-terminated text that is not part of a valid sequence with
 * '?' (a message cut in the middle of a character, or an echoed name). */
void utf8_scrub(char *text);

#endif
