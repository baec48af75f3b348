/* UTF-8 and the lowercase-letter rule for dictionary words (see dictionary_letters.h). */
#include "core/ladder/dictionary_letters.h"

bool dictionary_utf8_decode(const char *text, size_t len, uint32_t *out, size_t *out_len) {
    const unsigned char *bytes = (const unsigned char *)text;
    size_t count = 0;
    size_t i = 0;
    while (i < len) {
        unsigned char lead = bytes[i];
        uint32_t code_point;
        size_t extra;
        uint32_t smallest;
        if (lead == 0) {
            return false;
        } else if (lead < 0x80) {
            code_point = lead, extra = 0, smallest = 0;
        } else if ((lead & 0xE0) == 0xC0) {
            code_point = lead & 0x1F, extra = 1, smallest = 0x80;
        } else if ((lead & 0xF0) == 0xE0) {
            code_point = lead & 0x0F, extra = 2, smallest = 0x800;
        } else if ((lead & 0xF8) == 0xF0) {
            code_point = lead & 0x07, extra = 3, smallest = 0x10000;
        } else {
            return false;
        }
        if (extra > len - i - 1) {
            return false;
        }
        for (size_t k = 1; k <= extra; k++) {
            unsigned char next = bytes[i + k];
            if ((next & 0xC0) != 0x80) {
                return false;
            }
            code_point = (code_point << 6) | (next & 0x3F);
        }
        if (code_point < smallest || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) {
            return false;
        }
        out[count++] = code_point;
        i += extra + 1;
    }
    *out_len = count;
    return true;
}

size_t dictionary_utf8_encode(uint32_t code_point, char out[4]) {
    if (code_point < 0x80) {
        out[0] = (char)code_point;
        return 1;
    }
    if (code_point < 0x800) {
        out[0] = (char)(0xC0 | (code_point >> 6));
        out[1] = (char)(0x80 | (code_point & 0x3F));
        return 2;
    }
    if (code_point < 0x10000) {
        out[0] = (char)(0xE0 | (code_point >> 12));
        out[1] = (char)(0x80 | ((code_point >> 6) & 0x3F));
        out[2] = (char)(0x80 | (code_point & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (code_point >> 18));
    out[1] = (char)(0x80 | ((code_point >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((code_point >> 6) & 0x3F));
    out[3] = (char)(0x80 | (code_point & 0x3F));
    return 4;
}

/* Latin Extended-A alternates capital/lowercase pairs; the parity of the capitals flips at U+0139
 * and back at U+014A, and U+0138, U+0149, U+017F are lowercase letters without a capital. */
static bool latin_extended_a_is_lowercase(uint32_t c) {
    if (c == 0x138 || c == 0x149 || c == 0x17F) {
        return true;
    }
    if (c == 0x178) {
        return false;
    }
    bool odd = (c & 1) != 0;
    if (c < 0x138 || (c >= 0x14A && c < 0x178)) {
        return odd;
    }
    return !odd; /* U+0139-U+0148 and U+0179-U+017E */
}

bool dictionary_is_lowercase_letter(uint32_t c) {
    if (c >= 'a' && c <= 'z') {
        return true;
    }
    if (c >= 0xDF && c <= 0xFF) {
        return c != 0xF7;
    }
    if (c == 0xB5) {
        return true;
    }
    if (c >= 0x100 && c <= 0x17F) {
        return latin_extended_a_is_lowercase(c);
    }
    if (c == 0x390 || (c >= 0x3AC && c <= 0x3CE)) {
        return true;
    }
    return c >= 0x430 && c <= 0x45F;
}

uint32_t dictionary_to_lowercase(uint32_t c) {
    if (c >= 'A' && c <= 'Z') {
        return c + 0x20;
    }
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7) {
        return c + 0x20;
    }
    if (c == 0x130) {
        return 'i';
    }
    if (c == 0x178) {
        return 0xFF;
    }
    if (c >= 0x100 && c <= 0x17F) {
        return latin_extended_a_is_lowercase(c) ? c : c + 1;
    }
    if (c == 0x386) {
        return 0x3AC;
    }
    if (c >= 0x388 && c <= 0x38A) {
        return c + 0x25;
    }
    if (c == 0x38C) {
        return 0x3CC;
    }
    if (c == 0x38E || c == 0x38F) {
        return c + 0x3F;
    }
    if ((c >= 0x391 && c <= 0x3A1) || (c >= 0x3A3 && c <= 0x3AB)) {
        return c + 0x20;
    }
    if (c >= 0x400 && c <= 0x40F) {
        return c + 0x50;
    }
    if (c >= 0x410 && c <= 0x42F) {
        return c + 0x20;
    }
    return c;
}

bool dictionary_word_decode(const char *text, size_t len, bool fold_case, uint32_t *out, size_t *out_len) {
    if (len == 0 || !dictionary_utf8_decode(text, len, out, out_len)) {
        return false;
    }
    for (size_t i = 0; i < *out_len; i++) {
        if (fold_case) {
            out[i] = dictionary_to_lowercase(out[i]);
        }
        if (!dictionary_is_lowercase_letter(out[i])) {
            return false;
        }
    }
    return true;
}
