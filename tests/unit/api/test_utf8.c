/* Unit tests for api/utf8: strict decoding (RFC 3629 section 3 and its table of valid sequences),
 * whole-text checks and the in-place scrub error messages get. */
#include <criterion/criterion.h>
#include <string.h>

#include "api/utf8.h"

Test(utf8, decodes_each_length_and_its_bounds) {
    uint32_t code;
    cr_assert_eq(utf8_decode((const unsigned char *)"A", 1, &code), 1);
    cr_assert_eq(code, 0x41);
    cr_assert_eq(utf8_decode((const unsigned char *)"\xc2\x80", 2, &code), 2);
    cr_assert_eq(code, 0x80);
    cr_assert_eq(utf8_decode((const unsigned char *)"\xef\xbf\xbf", 3, &code), 3);
    cr_assert_eq(code, 0xFFFF);
    cr_assert_eq(utf8_decode((const unsigned char *)"\xf4\x8f\xbf\xbf", 4, &code), 4);
    cr_assert_eq(code, 0x10FFFF);
}

Test(utf8, refuses_overlongs_surrogates_out_of_range_and_cut_sequences) {
    const char *bad[] = {"\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xf0\x80\x80\xaf", "\xed\xa0\x80", "\xed\xbf\xbf",
                         "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\x80", "\xc3", "\xe2\x82", "\xc3\x41"};
    uint32_t code;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(utf8_decode((const unsigned char *)bad[i], strlen(bad[i]), &code), 0, "case %zu", i);
    }
    /* the length bound holds even when the bytes after it would complete the sequence */
    cr_assert_eq(utf8_decode((const unsigned char *)"\xc3\xa9", 1, &code), 0);
}

Test(utf8, valid_reports_the_first_bad_byte) {
    size_t at = 99;
    cr_assert(utf8_valid("caf\xc3\xa9 \xf0\x9f\x98\x80", 10, &at));
    cr_assert_eq(at, 99);
    cr_assert_not(utf8_valid("ab\xc3\xa9z\xffq", 7, &at));
    cr_assert_eq(at, 5);
    cr_assert(utf8_valid("", 0, NULL));
}

Test(utf8, scrub_replaces_only_the_bad_bytes) {
    char text[] = "ok \xc3\xa9 \xff\xfe \xe2\x82";
    utf8_scrub(text);
    cr_assert_str_eq(text, "ok \xc3\xa9 ?? ??");
    cr_assert(utf8_valid(text, strlen(text), NULL));
}
