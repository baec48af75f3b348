/* See printable.h. */
#include "server/printable.h"

#include <string.h>

static void copy_printable(char *out, size_t size, const char *in, size_t length, unsigned char lowest) {
    size_t i = 0;
    for (; i < length && i + 1 < size; i++) {
        unsigned char c = (unsigned char)in[i];
        out[i] = c >= lowest && c < 0x7f ? (char)c : '?';
    }
    out[i] = '\0';
}

void printable_ascii(char *out, size_t size, const char *in) { copy_printable(out, size, in, strlen(in), 0x21); }

void printable_text(char *out, size_t size, const char *in, size_t length) {
    copy_printable(out, size, in, length, 0x20);
}
