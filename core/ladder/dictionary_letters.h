/* Letters of dictionary words: UTF-8 decoding and encoding of code points, and the rule that says
 * which code points are lowercase letters and how capitals are lowered.
 *
 * The rule (self-contained tables, independent of the process locale) is Unicode's: a lowercase
 * letter is a code point of general category Ll, and lowering is the simple lowercase mapping, but
 * only within these blocks:
 *   lowercase letters  a-z; U+00B5 and U+00DF-U+00FF except U+00F7 (Latin-1: µ ß à-ö ø-ÿ);
 *                      the lowercase members of Latin Extended-A U+0100-U+017F (ā ă ą ... ı ĸ ŉ ž ſ);
 *                      Greek U+0390 and U+03AC-U+03CE (ΐ ά έ ή ί ΰ α-ω ς ϊ ϋ ό ύ ώ);
 *                      Cyrillic U+0430-U+045F (а-я ѐ-џ).
 *   lowering           A-Z, U+00C0-U+00DE except U+00D7, the capitals of Latin Extended-A
 *                      (İ U+0130 lowers to i, Ÿ U+0178 to ÿ), Greek U+0386-U+03AB,
 *                      Cyrillic U+0400-U+042F map to their lowercase letters; every other code
 *                      point is left as it is (so it is still not a lowercase letter). */
#ifndef PUZZLED_CORE_DICTIONARY_LETTERS_H
#define PUZZLED_CORE_DICTIONARY_LETTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes `len` bytes of UTF-8 into `out` (room for `len` code points). Returns false on malformed
 * input: bad or truncated sequences, overlong forms, surrogates, values above U+10FFFF, NUL. */
bool dictionary_utf8_decode(const char *text, size_t len, uint32_t *out, size_t *out_len);

/* Writes the UTF-8 form of `code_point` (valid, not a surrogate) to `out`; returns its byte count. */
size_t dictionary_utf8_encode(uint32_t code_point, char out[4]);

bool dictionary_is_lowercase_letter(uint32_t code_point);

/* Every lowercase letter is below this code point (the last is U+045F), so a set of letters fits a
 * small bitmap. */
#define DICTIONARY_LETTER_END 0x460u

/* The lowercase letter for a capital covered by the rule above; other code points unchanged. */
uint32_t dictionary_to_lowercase(uint32_t code_point);

/* Decodes a word of `len` bytes into `out` (room for `len` code points), lowering capitals first when
 * `fold_case`. True when the word is non-empty, valid UTF-8 and made only of lowercase letters. */
bool dictionary_word_decode(const char *text, size_t len, bool fold_case, uint32_t *out, size_t *out_len);

#endif
