/* The one-line text form of a grid (see sudoku_text.h). */
#include "core/sudoku/sudoku_text.h"

int sudoku_box_for_cells(size_t cells) {
    for (int box = SUDOKU_MIN_BOX; box <= SUDOKU_MAX_BOX; box++) {
        if (cells == (size_t)(box * box * box * box)) return box;
    }
    return 0;
}

int sudoku_symbol_value(char symbol) {
    if (symbol == '.' || symbol == '0') return 0;
    if (symbol >= '1' && symbol <= '9') return symbol - '0';
    if (symbol >= 'A' && symbol <= 'P') return symbol - 'A' + 10;
    if (symbol >= 'a' && symbol <= 'p') return symbol - 'a' + 10;
    return -1;
}

char sudoku_value_symbol(int value) {
    if (value == 0) return '.';
    return value <= 9 ? (char)('0' + value) : (char)('A' + value - 10);
}

sudoku_text_status sudoku_parse(const char *text, size_t len, sudoku_grid *grid, size_t *bad_position) {
    int box = sudoku_box_for_cells(len);
    if (box == 0) return SUDOKU_TEXT_BAD_LENGTH;
    sudoku_grid_clear(grid, box);
    for (size_t k = 0; k < len; k++) {
        int value = sudoku_symbol_value(text[k]);
        if (value < 0 || value > box * box) {
            *bad_position = k;
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
