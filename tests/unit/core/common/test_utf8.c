/* Unit tests for core/common/utf8: the strict rule checked by counting, against RFC 3629's table of
 * how many code points each sequence length encodes, and the repair of text cut inside a character. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/common/utf8.h"

/* Every 1-, 2- and 3-byte string is tried: the strings that are one whole sequence must be exactly as
 * many as the code points of that encoding length (less the 2048 surrogates among the 3-byte ones). */
Test(utf8, valid_sequences_are_exactly_the_code_points_of_their_length) {
    size_t valid[4] = {0};
    for (uint32_t bytes = 0; bytes < (1u << 24); bytes++) {
        unsigned char s[3] = {(unsigned char)(bytes >> 16), (unsigned char)(bytes >> 8), (unsigned char)bytes};
        for (size_t len = 1; len <= 3; len++) {
            if (len < 3 && (bytes & ((1u << (8 * (3 - len))) - 1)) != 0) continue; /* shorter: count once */
            uint32_t code;
            if (utf8_decode_one(s, len, &code) == len) {
                cr_assert(utf8_is_valid((const char *)s, len));
                valid[len]++;
            }
        }
    }
    cr_assert_eq(valid[1], 0x80);
    cr_assert_eq(valid[2], 0x800 - 0x80);
    cr_assert_eq(valid[3], 0x10000 - 0x800 - 0x800);
}

Test(utf8, four_byte_edges) {
    uint32_t code;
    cr_assert_eq(utf8_decode_one((const unsigned char *)"\xf0\x90\x80\x80", 4, &code), 4);
    cr_assert_eq(code, 0x10000);
    cr_assert_eq(utf8_decode_one((const unsigned char *)"\xf4\x8f\xbf\xbf", 4, &code), 4);
    cr_assert_eq(code, 0x10ffff);
    cr_assert_not(utf8_is_valid("\xf4\x90\x80\x80", 4)); /* U+110000 */
    cr_assert_not(utf8_is_valid("\xf0\x8f\xbf\xbf", 4)); /* overlong U+FFFF */
    cr_assert_not(utf8_is_valid("\xf0\x90\x80", 3));     /* cut short */
    cr_assert_not(utf8_is_valid("\xf8\x88\x80\x80\x80", 5));
}

Test(utf8, repair_marks_each_stray_byte) {
    char cut[] = "caf\xc3";
    utf8_repair(cut);
    cr_assert_str_eq(cut, "caf?");
    char euro_cut[] = "\xe2\x82 and \xe2\x82\xac";
    utf8_repair(euro_cut);
    cr_assert_str_eq(euro_cut, "?? and \xe2\x82\xac");
    char fine[] = "h\xc3\xa9llo \xf0\x9d\x84\x9e";
    utf8_repair(fine);
    cr_assert_str_eq(fine, "h\xc3\xa9llo \xf0\x9d\x84\x9e");
}
