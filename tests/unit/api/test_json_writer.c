/* Unit tests for api/json_writer: every written value must parse back (with cJSON, an independent
 * parser) to what was written. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "api/json_writer.h"

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
    jw_init(&w);
    jw_string(&w, text, 255);
    cJSON *doc = parse_written(&w);
    cr_assert(cJSON_IsString(doc));
    cr_assert_eq(strlen(doc->valuestring), 255);
    cr_assert(memcmp(doc->valuestring, text, 255) == 0);
    cJSON_Delete(doc);
    jw_free(&w);
}

Test(json_writer, integers_are_exact_at_the_extremes) {
    json_writer w;
    jw_init(&w);
    jw_char(&w, '[');
    jw_int(&w, INT64_MIN);
    jw_char(&w, ',');
    jw_uint(&w, UINT64_MAX);
    jw_char(&w, ',');
    jw_uint_string(&w, 18446744073709551615u);
    jw_char(&w, ']');
    cr_assert_str_eq(w.data, "[-9223372036854775808,18446744073709551615,\"18446744073709551615\"]");
    jw_free(&w);
}

Test(json_writer, big_integers_are_decimal_strings) {
    mpz_t v;
    mpz_init(v);
    mpz_fac_ui(v, 30);
    json_writer w;
    jw_init(&w);
    jw_mpz_string(&w, v);
    cr_assert_str_eq(w.data, "\"265252859812191058636308480000000\"");
    mpz_clear(v);
    jw_free(&w);
}

Test(json_writer, cjson_values_print_compactly_and_integers_exactly) {
    const char *input = "{\"a\":[1,2.5,-3,9007199254740991,\"x\\ny\",true,null,{}],\"b\\\"\":{\"c\":[]}}";
    cJSON *doc = cJSON_Parse(input);
    json_writer w;
    jw_init(&w);
    jw_cjson(&w, doc);
    cr_assert_str_eq(w.data, input);
    cJSON_Delete(doc);
    jw_free(&w);
}

/* Numbers far outside int64_t print as cJSON prints them and read back equal. The undefined int64_t
 * conversion jw_cjson once made of them is caught by clang's UBSan replaying
 * tests/fuzz/regressions/fuzz_fields/huge-number-item-converted-to-int64 (gcc's -fsanitize=undefined,
 * our sanitizer build, does not check float-to-integer casts). */
Test(json_writer, huge_numbers_print_without_an_integer_conversion) {
    const char *input = "[6.6e73,-1e300,9223372036854775808]";
    cJSON *doc = cJSON_Parse(input);
    json_writer w;
    jw_init(&w);
    jw_cjson(&w, doc);
    cJSON *back = cJSON_Parse(w.data);
    cr_assert_not_null(back, "%s", w.data);
    cr_assert(cJSON_Compare(doc, back, true), "%s", w.data);
    cJSON_Delete(back);
    cJSON_Delete(doc);
    jw_free(&w);
}

Test(json_writer, consume_keeps_the_unsent_tail) {
    json_writer w;
    jw_init(&w);
    jw_str(&w, "hello world");
    jw_consume(&w, 6);
    cr_assert_eq(w.len, 5);
    cr_assert(memcmp(w.data, "world", 5) == 0);
    jw_consume(&w, 99);
    cr_assert_eq(w.len, 0);
    jw_free(&w);
}
