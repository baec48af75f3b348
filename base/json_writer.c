/* JSON text written straight into a byte buffer (see json_writer.h). */
#include "base/json_writer.h"

#include <stdlib.h>
#include <string.h>

void jw_str(json_writer *w, const char *text) { bb_append_text(w, text); }

void jw_char(json_writer *w, char c) { bb_append(w, &c, 1); }

size_t jw_uint_digits(uint64_t v) {
    size_t digits = 1;
    for (; v >= 10000; v /= 10000) digits += 4;
    if (v >= 100) {
        digits += 2;
        v /= 100;
    }
    return v >= 10 ? digits + 1 : digits;
}

/* The table of jw_put_uint (json_writer.h): "0000" to "9999" written out by the preprocessor, then
 * the NUL and padding, so that a 4-byte read starting up to 3 bytes into the last group stays inside. */
/* clang-format off */
#define FOUR_DIGITS_1(p) p "0" p "1" p "2" p "3" p "4" p "5" p "6" p "7" p "8" p "9"
#define FOUR_DIGITS_2(p) FOUR_DIGITS_1(p "0") FOUR_DIGITS_1(p "1") FOUR_DIGITS_1(p "2") FOUR_DIGITS_1(p "3") \
    FOUR_DIGITS_1(p "4") FOUR_DIGITS_1(p "5") FOUR_DIGITS_1(p "6") FOUR_DIGITS_1(p "7") FOUR_DIGITS_1(p "8") \
    FOUR_DIGITS_1(p "9")
#define FOUR_DIGITS_3(p) FOUR_DIGITS_2(p "0") FOUR_DIGITS_2(p "1") FOUR_DIGITS_2(p "2") FOUR_DIGITS_2(p "3") \
    FOUR_DIGITS_2(p "4") FOUR_DIGITS_2(p "5") FOUR_DIGITS_2(p "6") FOUR_DIGITS_2(p "7") FOUR_DIGITS_2(p "8") \
    FOUR_DIGITS_2(p "9")
/* clang-format on */
const char jw_four_digits[JW_GROUP_DIGITS * JW_GROUP + JW_GROUP_DIGITS] =
    FOUR_DIGITS_3("0") FOUR_DIGITS_3("1") FOUR_DIGITS_3("2") FOUR_DIGITS_3("3") FOUR_DIGITS_3("4") FOUR_DIGITS_3("5")
        FOUR_DIGITS_3("6") FOUR_DIGITS_3("7") FOUR_DIGITS_3("8") FOUR_DIGITS_3("9");

char *jw_put_wide_uint(char *to, uint64_t v) {
    char *end = to + jw_uint_digits(v), *p = end;
    for (; v >= JW_GROUP; v /= JW_GROUP) {
        p -= JW_GROUP_DIGITS;
        memcpy(p, jw_four_digits + JW_GROUP_DIGITS * (v % JW_GROUP), JW_GROUP_DIGITS);
    }
    size_t leading_digits = (size_t)(p - to);
    memcpy(to, jw_four_digits + JW_GROUP_DIGITS * v + (JW_GROUP_DIGITS - leading_digits), leading_digits);
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
