/* The growable byte buffer (see byte_buffer.h): doubling capacity from 256 bytes, a NUL kept after
 * the contents. */
#include "base/byte_buffer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void bb_init(byte_buffer *b) { *b = (byte_buffer){0}; }

void bb_borrow(byte_buffer *b, char *data, size_t cap) {
    *b = (byte_buffer){.data = data, .cap = cap, .borrowed = true};
}

void bb_free(byte_buffer *b) {
    if (!b->borrowed) free(b->data);
    *b = (byte_buffer){0};
}

void bb_clear(byte_buffer *b) { b->len = 0; }

void bb_truncate(byte_buffer *b, size_t len) {
    if (len < b->len) b->len = len;
}

void bb_consume(byte_buffer *b, size_t n) {
    if (n >= b->len) {
        b->len = 0;
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
}

bool bb_reserve(byte_buffer *b, size_t extra) {
    if (b->out_of_memory) return false;
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) {
        if (cap > SIZE_MAX / 2) {
            b->out_of_memory = true;
            return false;
        }
        cap *= 2;
    }
    char *grown = b->borrowed ? malloc(cap) : realloc(b->data, cap);
    if (grown == NULL) {
        b->out_of_memory = true;
        return false;
    }
    if (b->borrowed) memcpy(grown, b->data, b->len);
    b->borrowed = false;
    b->data = grown;
    b->cap = cap;
    return true;
}

void bb_append(byte_buffer *b, const char *bytes, size_t len) {
    if (len == 0) return; /* `bytes` may then be NULL (an empty buffer's data), which memcpy must not get */
    if (!bb_reserve(b, len)) return;
    memcpy(b->data + b->len, bytes, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void bb_append_text(byte_buffer *b, const char *text) { bb_append(b, text, strlen(text)); }
