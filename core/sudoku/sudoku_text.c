/* The one-line text form of a grid (see sudoku_text.h). Both directions go through tables, since bulk
 * /sudoku/solve reads and writes a line a puzzle: a branch per character showed in its profile. */
#include "core/sudoku/sudoku_text.h"

#include <limits.h>
#include <string.h>

/* A value's symbol, 0 to 25. */
static const char value_symbols[SUDOKU_MAX_SIZE + 1] = ".123456789ABCDEFGHIJKLMNOP";

/* A character's value plus one: 0 for a character that is no symbol. */
static const unsigned char symbol_values_plus_one[UCHAR_MAX + 1] = {
    ['.'] = 1,  ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
    ['8'] = 9,  ['9'] = 10, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16, ['G'] = 17,
    ['H'] = 18, ['I'] = 19, ['J'] = 20, ['K'] = 21, ['L'] = 22, ['M'] = 23, ['N'] = 24, ['O'] = 25, ['P'] = 26,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['g'] = 17, ['h'] = 18, ['i'] = 19,
    ['j'] = 20, ['k'] = 21, ['l'] = 22, ['m'] = 23, ['n'] = 24, ['o'] = 25, ['p'] = 26,
};

int sudoku_box_for_cells(size_t cells) {
    for (int box = SUDOKU_MIN_BOX; box <= SUDOKU_MAX_BOX; box++) {
        if (cells == (size_t)(box * box * box * box)) return box;
    }
    return 0;
}

int sudoku_symbol_value(char symbol) { return symbol_values_plus_one[(unsigned char)symbol] - 1; }

char sudoku_value_symbol(int value) { return value_symbols[value]; }

/* The cells past the text are cleared (as sudoku_grid_clear leaves them), and so are those from a
 * bad character on, so the grid is the same whatever the outcome. */
sudoku_text_status sudoku_parse(const char *text, size_t len, sudoku_grid *grid, size_t *bad_position) {
    int box = sudoku_box_for_cells(len);
    if (box == 0) return SUDOKU_TEXT_BAD_LENGTH;
    grid->box = box;
    memset(grid->cells + len, 0, sizeof grid->cells - len);
    int largest = box * box;
    for (size_t k = 0; k < len; k++) {
        int value = sudoku_symbol_value(text[k]);
        if (value < 0 || value > largest) {
            *bad_position = k;
            memset(grid->cells + k, 0, len - k);
            return SUDOKU_TEXT_BAD_CHARACTER;
        }
        grid->cells[k] = (uint8_t)value;
    }
    return SUDOKU_TEXT_OK;
}

void sudoku_format(const sudoku_grid *grid, char *out) {
    int cells = grid->box * grid->box * grid->box * grid->box;
    for (int k = 0; k < cells; k++) out[k] = sudoku_value_symbol(grid->cells[k]);
    out[cells] = '\0';
}
