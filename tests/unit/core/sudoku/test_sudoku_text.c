/* The one-line text form against a reference written here from sudoku_text.h's rules (strings of
 * symbols searched character by character, no tables): every byte's value, every value's symbol, and
 * random lines of every length that matters, valid, with bad characters and of bad lengths, compared
 * whole grid by whole grid (the cells past the text and past a bad character included). */
#include <criterion/criterion.h>
#include <string.h>

#include "core/random/bounded_random.h"
#include "core/sudoku/sudoku_text.h"

static const char upper_symbols[] = "123456789ABCDEFGHIJKLMNOP"; /* values 1..25 */
static const char lower_symbols[] = "123456789abcdefghijklmnop";

/* The value of a character, 0 for an empty cell, -1 for none. */
static int reference_value(unsigned char c) {
    if (c == '.' || c == '0') return 0;
    for (int k = 0; upper_symbols[k] != '\0'; k++)
        if (c == (unsigned char)upper_symbols[k] || c == (unsigned char)lower_symbols[k]) return k + 1;
    return -1;
}

/* sudoku_parse's contract, the slow way: a cleared grid, filled up to the first bad character. */
static sudoku_text_status reference_parse(const char *text, size_t len, sudoku_grid *grid, size_t *bad) {
    int box = 0;
    for (int b = SUDOKU_MIN_BOX; b <= SUDOKU_MAX_BOX; b++)
        if (len == (size_t)(b * b * b * b)) box = b;
    if (box == 0) return SUDOKU_TEXT_BAD_LENGTH;
    sudoku_grid_clear(grid, box);
    for (size_t k = 0; k < len; k++) {
        int value = reference_value((unsigned char)text[k]);
        if (value < 0 || value > box * box) {
            *bad = k;
            return SUDOKU_TEXT_BAD_CHARACTER;
        }
        grid->cells[k] = (uint8_t)value;
    }
    return SUDOKU_TEXT_OK;
}

Test(sudoku_text, reads_every_byte_as_the_rules_say) {
    for (int c = 0; c < 256; c++)
        cr_assert_eq(sudoku_symbol_value((char)c), reference_value((unsigned char)c), "byte 0x%02x", c);
}

Test(sudoku_text, writes_every_value_as_the_rules_say) {
    cr_assert_eq(sudoku_value_symbol(0), '.');
    for (int value = 1; value <= SUDOKU_MAX_SIZE; value++)
        cr_assert_eq(sudoku_value_symbol(value), upper_symbols[value - 1], "value %d", value);
}

Test(sudoku_text, parses_and_formats_random_lines_like_the_reference) {
    static const size_t lengths[] = {16, 81, 256, 625, 0, 15, 17, 80, 82, 624, 626};
    static const char likely[] = "....0123456789ABCDEFGHIJKLMNOPabcdefghijklmnopQqZz \r\t#";
    rng random;
    rng_seed_u64(&random, 1717);
    int parsed = 0, bad_characters = 0;
    for (int trial = 0; trial < 20000; trial++) {
        size_t len = lengths[trial % (sizeof lengths / sizeof lengths[0])];
        int box = sudoku_box_for_cells(len);
        char text[SUDOKU_MAX_CELLS + 2];
        /* most lines stay within the box's symbols; some take any byte at a random place */
        size_t symbols = box > 0 && trial % 3 != 0 ? 5 + (size_t)(box * box) : sizeof likely - 1;
        for (size_t k = 0; k < len; k++) text[k] = likely[bounded_random(&random, symbols)];
        if (len > 0 && trial % 5 == 0) text[bounded_random(&random, len)] = (char)bounded_random(&random, 256);
        sudoku_grid got, want;
        memset(&got, 0xAB, sizeof got); /* whatever the caller's grid held before */
        memset(&want, 0xAB, sizeof want);
        size_t got_bad = 0, want_bad = 0;
        sudoku_text_status status = sudoku_parse(text, len, &got, &got_bad);
        cr_assert_eq(status, reference_parse(text, len, &want, &want_bad), "trial %d", trial);
        cr_assert(memcmp(&got, &want, sizeof got) == 0, "trial %d: the grids differ", trial);
        if (status == SUDOKU_TEXT_BAD_CHARACTER) {
            cr_assert_eq(got_bad, want_bad, "trial %d", trial);
            bad_characters++;
        }
        if (status != SUDOKU_TEXT_OK) continue;
        parsed++;
        char formatted[SUDOKU_MAX_CELLS + 1];
        sudoku_format(&got, formatted);
        cr_assert_eq(strlen(formatted), len, "trial %d", trial);
        for (size_t k = 0; k < len; k++) {
            int value = reference_value((unsigned char)text[k]);
            char expected = value == 0 ? '.' : upper_symbols[value - 1];
            cr_assert_eq(formatted[k], expected, "trial %d, cell %zu", trial, k);
        }
    }
    cr_assert_gt(parsed, 1000);
    cr_assert_gt(bad_characters, 1000);
}
