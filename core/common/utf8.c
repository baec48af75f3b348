/* Strict UTF-8 decoding and checking (see utf8.h). */
#include "core/common/utf8.h"

#include <string.h>

size_t utf8_decode_one(const unsigned char *s, size_t len, uint32_t *code) {
    if (s[0] < 0x80) {
        *code = s[0];
        return 1;
    }
    size_t count = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
    if (count == 0 || s[0] > 0xF4 || count > len) return 0;
    uint32_t c = s[0] & (0x3F >> (count - 1));
    for (size_t i = 1; i < count; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    static const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < smallest[count] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    *code = c;
    return count;
}

/* The high bit of each byte of a word: none set, the word's 8 bytes are ASCII. */
#define HIGH_BITS UINT64_C(0x8080808080808080)

bool utf8_is_valid(const char *text, size_t len) {
    const unsigned char *s = (const unsigned char *)text;
    for (size_t at = 0; at < len;) {
        uint64_t word;
        if (len - at >= sizeof word) { /* ASCII a word at a time: each of its bytes is a code point */
            memcpy(&word, s + at, sizeof word);
            if ((word & HIGH_BITS) == 0) {
                at += sizeof word;
                continue;
            }
        }
        uint32_t code;
        size_t step = utf8_decode_one(s + at, len - at, &code);
        if (step == 0) return false;
        at += step;
    }
    return true;
}

void utf8_repair(char *text) {
    unsigned char *s = (unsigned char *)text;
    size_t len = strlen(text);
    for (size_t at = 0; at < len;) {
        uint32_t code;
        size_t step = utf8_decode_one(s + at, len - at, &code);
        if (step == 0) {
            s[at] = '?';
            step = 1;
        }
        at += step;
    }
}
