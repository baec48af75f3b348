/* JSON text written straight into a byte buffer (see json_writer.h). */
#include "api/json_writer.h"

#include <stdlib.h>
#include <string.h>

#include "core/common/decimal.h"

void jw_str(json_writer *w, const char *text) { bb_append_text(w, text); }

void jw_char(json_writer *w, char c) { bb_append(w, &c, 1); }

/* "00" to "99": two digits per division, the usual way to halve the divisions of decimal printing. */
static const char two_digits[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                    "8081828384858687888990919293949596979899";

static size_t decimal_digits(uint64_t v) {
    size_t digits = 1;
    for (; v >= 10000; v /= 10000) digits += 4;
    if (v >= 100) {
        digits += 2;
        v /= 100;
    }
    return v >= 10 ? digits + 1 : digits;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Values from 10 to 10^8 - 1 (nearly all that streams: shuffled values, columns, squares) without a
 * loop: all eight digits of v, leading zeros included, computed at once in the eight bytes of one word
 * (most significant first in memory), the SWAR fixed-width method described by Paul Khuong and Daniel
 * Lemire (2021): v splits into two 4-digit lanes, each into two 2-digit lanes, each into two digits,
 * every division by a constant done for all lanes with one multiplication and shift (exact below the
 * lanes' bounds). The word is stored whole, shifted past its leading zeros: 8 bytes at `to`. */
enum { EIGHT_DIGITS_END = 100000000 };

static uint64_t eight_digits(uint64_t v) {
    uint64_t fours = v / 10000 | (v % 10000) << 32;                         /* the high four digits in the low lane */
    uint64_t high_pairs = ((fours * 10486) >> 20) & (0x7Full << 32 | 0x7F); /* each lane / 100 */
    uint64_t pairs = (fours - 100 * high_pairs) << 16 | high_pairs;         /* 2-digit lanes */
    uint64_t high_digits = ((pairs * 103) >> 10) & 0x000F000F000F000Full;   /* each lane / 10 */
    return high_digits | (pairs - 10 * high_digits) << 8;
}

static char *put_up_to_eight_digits(char *to, uint64_t v) {
    uint64_t digits = eight_digits(v);
    unsigned leading_zeros = (unsigned)__builtin_ctzll(digits) / 8; /* v >= 10: at most six */
    digits = (digits + 0x3030303030303030ull) >> (8 * leading_zeros);
    memcpy(to, &digits, sizeof digits);
    return to + 8 - leading_zeros;
}
#endif

char *jw_put_uint(char *to, uint64_t v) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (v >= 10 && v < EIGHT_DIGITS_END) return put_up_to_eight_digits(to, v);
#endif
    char *end = to + decimal_digits(v), *p = end;
    while (v >= 100) {
        const char *pair = two_digits + 2 * (v % 100);
        v /= 100;
        *--p = pair[1];
        *--p = pair[0];
    }
    if (v >= 10) {
        *--p = two_digits[2 * v + 1];
        *--p = two_digits[2 * v];
    } else {
        *--p = (char)('0' + v);
    }
    return end;
}

void jw_uint(json_writer *w, uint64_t v) {
    if (!bb_reserve(w, JW_UINT_MAX_DIGITS)) return;
    w->len = (size_t)(jw_put_uint(w->data + w->len, v) - w->data);
    w->data[w->len] = '\0';
}

void jw_int(json_writer *w, int64_t v) {
    if (v < 0) {
        jw_char(w, '-');
        jw_uint(w, (uint64_t)0 - (uint64_t)v);
    } else {
        jw_uint(w, (uint64_t)v);
    }
}

void jw_uint_string(json_writer *w, uint64_t v) {
    jw_char(w, '"');
    jw_uint(w, v);
    jw_char(w, '"');
}

void jw_string(json_writer *w, const char *text, size_t len) {
    static const char hex[] = "0123456789abcdef";
    if (!bb_reserve(w, len + 2)) return;
    jw_char(w, '"');
    size_t plain_start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        bb_append(w, text + plain_start, i - plain_start);
        plain_start = i + 1;
        switch (c) {
        case '"': bb_append(w, "\\\"", 2); break;
        case '\\': bb_append(w, "\\\\", 2); break;
        case '\n': bb_append(w, "\\n", 2); break;
        case '\r': bb_append(w, "\\r", 2); break;
        case '\t': bb_append(w, "\\t", 2); break;
        case '\b': bb_append(w, "\\b", 2); break;
        case '\f': bb_append(w, "\\f", 2); break;
        default: {
            char escape[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            bb_append(w, escape, sizeof escape);
        }
        }
    }
    bb_append(w, text + plain_start, len - plain_start);
    jw_char(w, '"');
}

void jw_cstring(json_writer *w, const char *text) { jw_string(w, text, strlen(text)); }

void jw_key(json_writer *w, const char *name) {
    jw_cstring(w, name);
    jw_char(w, ':');
}

void jw_mpz_string(json_writer *w, const mpz_t v) {
    if (!bb_reserve(w, decimal_room(v) + 2)) return;
    jw_char(w, '"');
    w->len += decimal_write(w->data + w->len, v);
    jw_char(w, '"');
}

bool jw_exact_integer(json_writer *w, double number) {
    /* Integers print exactly; cJSON's %1.15g would turn 2^53-1 into 9.00719925474099e+15. The range
     * comes first: converting a double outside int64_t's range is undefined (found by fuzzing). */
    if (!(number >= -9007199254740992.0 && number <= 9007199254740992.0 && number == (double)(int64_t)number))
        return false;
    jw_int(w, (int64_t)number);
    return true;
}

void jw_cjson(json_writer *w, const cJSON *value) {
    if (cJSON_IsNumber(value) && jw_exact_integer(w, value->valuedouble)) return;
    if (cJSON_IsString(value)) {
        jw_cstring(w, value->valuestring);
        return;
    }
    if (cJSON_IsArray(value) || cJSON_IsObject(value)) {
        bool object = cJSON_IsObject(value);
        jw_char(w, object ? '{' : '[');
        for (const cJSON *child = value->child; child != NULL; child = child->next) {
            if (child != value->child) jw_char(w, ',');
            if (object) jw_key(w, child->string);
            jw_cjson(w, child);
        }
        jw_char(w, object ? '}' : ']');
        return;
    }
    char *printed = cJSON_PrintUnformatted(value);
    if (printed == NULL) {
        w->out_of_memory = true;
        return;
    }
    jw_str(w, printed);
    cJSON_free(printed);
}
