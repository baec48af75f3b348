/* Unit tests for the UTF-8 codec and the lowercase-letter rule of dictionary words, checked against
 * Python's unicodedata for every code point of the covered blocks. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ladder/dictionary_letters.h"

static bool decodes(const char *text, size_t len) {
    uint32_t out[16];
    size_t out_len;
    return dictionary_utf8_decode(text, len, out, &out_len);
}

Test(dictionary_letters, decodes_code_points_not_bytes) {
    uint32_t out[8];
    size_t len;
    const char *word = "\xC3\xA9t\xC3\xA0"; /* été without the last accent: é t à */
    cr_assert(dictionary_utf8_decode(word, strlen(word), out, &len));
    cr_assert_eq(len, 3);
    cr_assert_eq(out[0], 0xE9);
    cr_assert_eq(out[1], 't');
    cr_assert_eq(out[2], 0xE0);
    const char *astral = "\xF0\x9F\x98\x80";
    cr_assert(dictionary_utf8_decode(astral, 4, out, &len));
    cr_assert_eq(len, 1);
    cr_assert_eq(out[0], 0x1F600);
}

Test(dictionary_letters, rejects_malformed_utf8) {
    cr_assert_not(decodes("\xC0\x80", 2), "overlong NUL");
    cr_assert_not(decodes("\xE0\x80\xAF", 3), "overlong slash");
    cr_assert_not(decodes("\xED\xA0\x80", 3), "surrogate");
    cr_assert_not(decodes("\xF4\x90\x80\x80", 4), "above U+10FFFF");
    cr_assert_not(decodes("\xC3", 1), "truncated");
    cr_assert_not(decodes("a\x80", 2), "stray continuation byte");
    cr_assert_not(decodes("\xF8\x88\x80\x80\x80", 5), "five-byte form");
    cr_assert_not(decodes("a\0b", 3), "NUL");
    cr_assert(decodes("", 0));
}

Test(dictionary_letters, encode_inverts_decode) {
    for (uint32_t c = 1; c <= 0x10FFFF; c += (c < 0x1000 ? 1 : 97)) {
        if (c >= 0xD800 && c <= 0xDFFF) {
            continue;
        }
        char bytes[4];
        size_t n = dictionary_utf8_encode(c, bytes);
        uint32_t back[4];
        size_t len;
        cr_assert(dictionary_utf8_decode(bytes, n, back, &len), "U+%04X", c);
        cr_assert_eq(len, 1);
        cr_assert_eq(back[0], c, "U+%04X", c);
    }
}

/* Python lists, per code point of the covered blocks (Basic Latin, Latin-1 Supplement, Latin
 * Extended-A, Greek U+0386-U+03CE, Cyrillic U+0400-U+045F): whether it is a lowercase letter (Ll)
 * and its single-code-point lowercase form. */
static const char PYTHON_TABLE[] = "python3 -c \"\n"
                                   "import unicodedata\n"
                                   "blocks = [(0x20, 0x7E), (0xA0, 0x17F), (0x386, 0x3CE), (0x400, 0x45F)]\n"
                                   "for a, b in blocks:\n"
                                   "    for c in range(a, b + 1):\n"
                                   "        ch = chr(c)\n"
                                   "        low = ch.lower()\n"
                                   "        low = ord(low[0]) if len(low) >= 1 else c\n"
                                   "        print(c, 1 if unicodedata.category(ch) == 'Ll' else 0, low)\n"
                                   "\"";

Test(dictionary_letters, rule_matches_unicode_data_for_covered_blocks) {
    FILE *python = popen(PYTHON_TABLE, "r");
    cr_assert_not_null(python);
    unsigned code_point, is_lower, lower;
    size_t rows = 0;
    while (fscanf(python, "%u %u %u", &code_point, &is_lower, &lower) == 3) {
        rows++;
        cr_assert_eq(dictionary_is_lowercase_letter(code_point), is_lower == 1, "U+%04X", code_point);
        cr_assert_eq(dictionary_to_lowercase(code_point), lower, "U+%04X lowers to U+%04X, expected U+%04X", code_point,
                     dictionary_to_lowercase(code_point), lower);
    }
    cr_assert_eq(pclose(python), 0);
    cr_assert_eq(rows, 95 + 224 + 73 + 96);
}

Test(dictionary_letters, other_scripts_are_not_letters_of_the_rule) {
    cr_assert_not(dictionary_is_lowercase_letter(0x0180)); /* Latin Extended-B ƀ */
    cr_assert_not(dictionary_is_lowercase_letter(0x4E00)); /* CJK */
    cr_assert_not(dictionary_is_lowercase_letter('\''));
    cr_assert_eq(dictionary_to_lowercase(0x0181), 0x0181);
}

Test(dictionary_letters, word_decode_folds_case_and_checks_letters) {
    uint32_t out[16];
    size_t len;
    const char *word = "\xC3\x89T\xC3\x89"; /* ÉTÉ */
    cr_assert(dictionary_word_decode(word, strlen(word), true, out, &len));
    cr_assert_eq(len, 3);
    cr_assert_eq(out[0], 0xE9);
    cr_assert_eq(out[1], 't');
    cr_assert_not(dictionary_word_decode(word, strlen(word), false, out, &len), "capitals without folding");
    cr_assert_not(dictionary_word_decode("don't", 5, true, out, &len));
    cr_assert_not(dictionary_word_decode("", 0, true, out, &len));
    cr_assert_not(dictionary_word_decode("a b", 3, true, out, &len));
    cr_assert(dictionary_word_decode("stra\xC3\x9F\x65", 7, false, out, &len)); /* straße */
}

/* The substitution index (dictionary.h) keeps letter sets as bitmaps of DICTIONARY_LETTER_END bits. */
Test(dictionary_letters, every_lowercase_letter_is_below_the_letter_end) {
    cr_assert(dictionary_is_lowercase_letter(DICTIONARY_LETTER_END - 1));
    for (uint32_t c = DICTIONARY_LETTER_END; c <= 0x10FFFF; c++) {
        cr_assert_not(dictionary_is_lowercase_letter(c), "U+%04X", c);
    }
}
