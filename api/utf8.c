/* Strict UTF-8 checks (see utf8.h). */
#include "api/utf8.h"

#include <string.h>

size_t utf8_decode(const unsigned char *s, size_t avail, uint32_t *code) {
    if (avail == 0) return 0;
    if (s[0] < 0x80) {
        *code = s[0];
        return 1;
    }
    size_t len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
    if (len == 0 || s[0] > 0xF4 || len > avail) return 0;
    uint32_t c = s[0] & (0x3F >> (len - 1));
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    static const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < smallest[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    *code = c;
    return len;
}

bool utf8_valid(const char *text, size_t len, size_t *bad_at) {
    const unsigned char *s = (const unsigned char *)text;
    uint32_t code;
    for (size_t at = 0; at < len;) {
        size_t step = utf8_decode(s + at, len - at, &code);
        if (step == 0) {
            if (bad_at != NULL) *bad_at = at;
            return false;
        }
        at += step;
    }
    return true;
}

void utf8_scrub(char *text) {
    unsigned char *s = (unsigned char *)text;
    size_t len = strlen(text);
    uint32_t code;
    for (size_t at = 0; at < len;) {
        size_t step = utf8_decode(s + at, len - at, &code);
        if (step == 0) {
            s[at] = '?';
            step = 1;
        }
        at += step;
    }
}
