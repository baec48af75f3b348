/* See printable.h. */
#include "server/printable.h"

void printable_ascii(char *out, size_t size, const char *in) {
    size_t i = 0;
    for (; in[i] != '\0' && i + 1 < size; i++) {
        unsigned char c = (unsigned char)in[i];
        out[i] = c > 0x20 && c < 0x7f ? (char)c : '?';
    }
    out[i] = '\0';
}
