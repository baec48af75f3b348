/* Unit tests for base/json_writer: every written value must parse back (with cJSON, an independent
 * parser) to what was written. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_writer.h"

static cJSON *parse_written(json_writer *w) {
    cr_assert(!w->out_of_memory);
    cJSON *doc = cJSON_ParseWithLength(w->data, w->len);
    cr_assert_not_null(doc, "not JSON: %.*s", (int)w->len, w->data);
    return doc;
}

Test(json_writer, every_byte_escapes_and_round_trips) {
    char text[256];
    for (int i = 0; i < 255; i++) text[i] = (char)(i + 1); /* all bytes but NUL, including invalid UTF-8 tails */
    /* cJSON accepts raw bytes >= 0x80 inside strings, so the round trip is byte-exact. */
    json_writer w;
    bb_init(&w);
    jw_string(&w, text, 255);
    cJSON *doc = parse_written(&w);
    cr_assert(cJSON_IsString(doc));
    cr_assert_eq(strlen(doc->valuestring), 255);
    cr_assert(memcmp(doc->valuestring, text, 255) == 0);
    cJSON_Delete(doc);
    bb_free(&w);
}

Test(json_writer, integers_are_exact_at_the_extremes) {
    json_writer w;
    bb_init(&w);
    jw_char(&w, '[');
    jw_int(&w, INT64_MIN);
    jw_char(&w, ',');
    jw_uint(&w, UINT64_MAX);
    jw_char(&w, ',');
    jw_uint_string(&w, 18446744073709551615u);
    jw_char(&w, ']');
    cr_assert_str_eq(w.data, "[-9223372036854775808,18446744073709551615,\"18446744073709551615\"]");
    bb_free(&w);
}

/* jw_put_uint against printf at every digit-count boundary (9..9, 10..0 and their neighbours) and on
 * a spread of values between. */
Test(json_writer, put_uint_matches_printf) {
    uint64_t values[200];
    size_t count = 0;
    for (uint64_t power = 1; count < 60; power *= 10) {
        values[count++] = power - 1;
        values[count++] = power;
        values[count++] = power + 1;
        if (power > UINT64_MAX / 10) break;
    }
    values[count++] = UINT64_MAX;
    for (uint64_t v = 7; count < sizeof values / sizeof *values; v = v * 6364136223846793005u + 1442695040888963407u) {
        values[count] = v >> (count % 64); /* every magnitude */
        count++;
    }
    for (size_t i = 0; i < count; i++) {
        char expected[32], got[JW_UINT_MAX_DIGITS + 1];
        snprintf(expected, sizeof expected, "%llu", (unsigned long long)values[i]);
        char *end = jw_put_uint(got, values[i]);
        *end = '\0';
        cr_assert_str_eq(got, expected);
    }
}

/* Below 10^8 the digits come from a table of four-digit groups, the high group shifted past its
 * leading zeros: every value below 10^6, every value within 2,000 of each power of ten up to 10^9, and
 * every 97th value up to past 10^8, against printf. */
Test(json_writer, put_uint_table_path_matches_printf) {
    for (uint64_t power = 1; power <= 1000000000; power *= 10) {
        uint64_t first = power > 2000 ? power - 2000 : 0;
        for (uint64_t v = first; v < power + 2000; v++) {
            char expected[32], got[JW_UINT_MAX_DIGITS + 1];
            snprintf(expected, sizeof expected, "%llu", (unsigned long long)v);
            char *end = jw_put_uint(got, v);
            *end = '\0';
            cr_assert_str_eq(got, expected);
        }
    }
    for (uint64_t v = 0; v < 100001000; v += v < 1000000 ? 1 : 97) {
        char expected[32], got[JW_UINT_MAX_DIGITS + 1];
        snprintf(expected, sizeof expected, "%llu", (unsigned long long)v);
        char *end = jw_put_uint(got, v);
        *end = '\0';
        cr_assert_str_eq(got, expected);
    }
}

Test(json_writer, cjson_values_print_compactly_and_integers_exactly) {
    const char *input = "{\"a\":[1,2.5,-3,9007199254740991,\"x\\ny\",true,null,{}],\"b\\\"\":{\"c\":[]}}";
    cJSON *doc = cJSON_Parse(input);
    json_writer w;
    bb_init(&w);
    jw_cjson(&w, doc);
    cr_assert_str_eq(w.data, input);
    cJSON_Delete(doc);
    bb_free(&w);
}

/* Numbers far outside int64_t print as cJSON prints them and read back equal. The undefined int64_t
 * conversion jw_cjson once made of them is caught by clang's UBSan replaying
 * tests/fuzz/regressions/fuzz_fields/huge-number-item-converted-to-int64 (gcc's -fsanitize=undefined,
 * our sanitizer build, does not check float-to-integer casts). */
Test(json_writer, huge_numbers_print_without_an_integer_conversion) {
    const char *input = "[6.6e73,-1e300,9223372036854775808]";
    cJSON *doc = cJSON_Parse(input);
    json_writer w;
    bb_init(&w);
    jw_cjson(&w, doc);
    cJSON *back = cJSON_Parse(w.data);
    cr_assert_not_null(back, "%s", w.data);
    cr_assert(cJSON_Compare(doc, back, true), "%s", w.data);
    cJSON_Delete(back);
    cJSON_Delete(doc);
    bb_free(&w);
}
