/* The human techniques, each a finder that fills a step or says it does not apply (see
 * sudoku_logic.h). Finders look at units in order (rows, columns, boxes) and values in increasing
 * order, so the same grid always gives the same next step. Definitions follow the usual solver
 * vocabulary (e.g. sudokuwiki.org's strategy pages and qqwing's log). */
#include "core/sudoku/sudoku_logic.h"

#include <string.h>

static const char *const technique_names[SUDOKU_TECHNIQUES] = {
    "naked_single",  "hidden_single", "pointing", "box_line_reduction", "naked_pair", "hidden_pair", "naked_triple",
    "hidden_triple", "x_wing",        "guess",
};
static const char *const difficulty_names[SUDOKU_DIFFICULTIES] = {"simple", "easy", "intermediate", "expert"};

const char *sudoku_technique_name(sudoku_technique technique) { return technique_names[technique]; }
const char *sudoku_difficulty_name(sudoku_difficulty difficulty) { return difficulty_names[difficulty]; }

sudoku_difficulty sudoku_technique_difficulty(sudoku_technique technique) {
    switch (technique) {
    case SUDOKU_NAKED_SINGLE: return SUDOKU_SIMPLE;
    case SUDOKU_HIDDEN_SINGLE: return SUDOKU_EASY;
    case SUDOKU_GUESS: return SUDOKU_EXPERT;
    default: return SUDOKU_INTERMEDIATE;
    }
}

static inline uint32_t value_bit(int value) { return UINT32_C(1) << (value - 1); }

static void place(sudoku_logic *logic, int cell, int value) {
    const sudoku_geometry *g = logic->geometry;
    logic->grid.cells[cell] = (uint8_t)value;
    logic->candidates[cell] = 0;
    for (int k = 0; k < g->peer_count; k++) logic->candidates[g->peers[cell][k]] &= ~value_bit(value);
}

void sudoku_logic_start(sudoku_logic *logic, const sudoku_grid *puzzle, const sudoku_grid *solution) {
    const sudoku_geometry *g = sudoku_geometry_of(puzzle->box);
    logic->geometry = g;
    logic->solution = *solution;
    sudoku_grid_clear(&logic->grid, puzzle->box);
    uint32_t all = (uint32_t)((UINT64_C(1) << g->size) - 1);
    for (int cell = 0; cell < g->cells; cell++) logic->candidates[cell] = all;
    for (int cell = 0; cell < g->cells; cell++) {
        if (puzzle->cells[cell] != 0) place(logic, cell, puzzle->cells[cell]);
    }
}

bool sudoku_logic_done(const sudoku_logic *logic) {
    for (int cell = 0; cell < logic->geometry->cells; cell++) {
        if (logic->grid.cells[cell] == 0) return false;
    }
    return true;
}

static void begin_step(sudoku_step *step, sudoku_technique technique) {
    step->technique = technique;
    step->units[0] = step->units[1] = -1;
    step->pattern_count = 0;
    step->pattern_values = 0;
    step->place_cell = -1;
    step->place_value = 0;
    step->elimination_count = 0;
}

static void add_pattern(sudoku_step *step, int cell) {
    if (step->pattern_count < SUDOKU_MAX_PATTERN) step->pattern[step->pattern_count++] = cell;
}

/* Records that `values` go from `cell`, if it still has any of them. */
static void eliminate(const sudoku_logic *logic, sudoku_step *step, int cell, uint32_t values) {
    uint32_t removed = logic->candidates[cell] & values;
    if (removed == 0 || step->elimination_count == SUDOKU_MAX_ELIMINATIONS) return;
    step->eliminations[step->elimination_count++] = (sudoku_elimination){cell, removed};
}

/* The cells of `unit` that may still hold `value`, as a mask of positions within the unit. */
static uint32_t positions_of(const sudoku_logic *logic, int unit, int value) {
    const sudoku_geometry *g = logic->geometry;
    uint32_t positions = 0;
    for (int k = 0; k < g->size; k++) {
        if (logic->candidates[g->unit_cells[unit][k]] & value_bit(value)) positions |= UINT32_C(1) << k;
    }
    return positions;
}

static bool naked_single(const sudoku_logic *logic, sudoku_step *step) {
    for (int cell = 0; cell < logic->geometry->cells; cell++) {
        uint32_t marks = logic->candidates[cell];
        if (logic->grid.cells[cell] == 0 && marks != 0 && (marks & (marks - 1)) == 0) {
            begin_step(step, SUDOKU_NAKED_SINGLE);
            add_pattern(step, cell);
            step->pattern_values = marks;
            step->place_cell = cell;
            step->place_value = __builtin_ctz(marks) + 1;
            return true;
        }
    }
    return false;
}

static bool hidden_single(const sudoku_logic *logic, sudoku_step *step) {
    const sudoku_geometry *g = logic->geometry;
    for (int unit = 0; unit < g->units; unit++) {
        for (int value = 1; value <= g->size; value++) {
            uint32_t positions = positions_of(logic, unit, value);
            if (positions == 0 || (positions & (positions - 1)) != 0) continue;
            int cell = g->unit_cells[unit][__builtin_ctz(positions)];
            begin_step(step, SUDOKU_HIDDEN_SINGLE);
            step->units[0] = unit;
            add_pattern(step, cell);
            step->pattern_values = value_bit(value);
            step->place_cell = cell;
            step->place_value = value;
            return true;
        }
    }
    return false;
}

/* The unit of `kind` containing every cell of `positions` in `unit`, or -1. */
static int common_unit(const sudoku_logic *logic, int unit, uint32_t positions, sudoku_unit_kind kind) {
    const sudoku_geometry *g = logic->geometry;
    int shared = -1;
    for (; positions != 0; positions &= positions - 1) {
        int other = g->cell_units[g->unit_cells[unit][__builtin_ctz(positions)]][kind];
        if (shared >= 0 && other != shared) return -1;
        shared = other;
    }
    return shared;
}

/* Pointing (base: a box, cover: a line) and box/line reduction (base: a line, cover: a box): all
 * places of a value in the base lie in one cover unit, so the value leaves the rest of the cover. */
static bool intersection(const sudoku_logic *logic, sudoku_step *step, sudoku_technique technique) {
    const sudoku_geometry *g = logic->geometry;
    bool pointing = technique == SUDOKU_POINTING;
    int first = pointing ? SUDOKU_BOX * g->size : 0, last = pointing ? g->units : SUDOKU_BOX * g->size;
    for (int base = first; base < last; base++) {
        for (int value = 1; value <= g->size; value++) {
            uint32_t positions = positions_of(logic, base, value);
            if (__builtin_popcount(positions) < 2) continue;
            for (int kind = SUDOKU_ROW; kind <= SUDOKU_BOX; kind++) {
                if (kind == (int)sudoku_unit_kind_of(g, base) || (pointing == (kind == SUDOKU_BOX))) continue;
                int cover = common_unit(logic, base, positions, (sudoku_unit_kind)kind);
                if (cover < 0) continue;
                begin_step(step, technique);
                step->units[0] = base;
                step->units[1] = cover;
                step->pattern_values = value_bit(value);
                for (uint32_t p = positions; p != 0; p &= p - 1)
                    add_pattern(step, g->unit_cells[base][__builtin_ctz(p)]);
                for (int k = 0; k < g->size; k++) {
                    int cell = g->unit_cells[cover][k];
                    if (g->cell_units[cell][sudoku_unit_kind_of(g, base)] != base)
                        eliminate(logic, step, cell, value_bit(value));
                }
                if (step->elimination_count > 0) return true;
            }
        }
    }
    return false;
}

/* Naked subsets: `size` cells of a unit whose candidates together are `size` values; those values
 * leave the unit's other cells. Cells are chosen by recursion over positions from `from`. */
static bool naked_subset_from(const sudoku_logic *logic, sudoku_step *step, int unit, int size, int from, int chosen,
                              uint32_t chosen_positions, uint32_t values) {
    const sudoku_geometry *g = logic->geometry;
    if (chosen == size) {
        if (__builtin_popcount(values) != size) return false;
        begin_step(step, size == 2 ? SUDOKU_NAKED_PAIR : SUDOKU_NAKED_TRIPLE);
        step->units[0] = unit;
        step->pattern_values = values;
        for (int k = 0; k < g->size; k++) {
            int cell = g->unit_cells[unit][k];
            if (chosen_positions & (UINT32_C(1) << k)) {
                add_pattern(step, cell);
            } else {
                eliminate(logic, step, cell, values);
            }
        }
        return step->elimination_count > 0;
    }
    for (int k = from; k < g->size; k++) {
        uint32_t marks = logic->candidates[g->unit_cells[unit][k]];
        int count = __builtin_popcount(marks);
        if (count < 2 || count > size || __builtin_popcount(values | marks) > size) continue;
        if (naked_subset_from(logic, step, unit, size, k + 1, chosen + 1, chosen_positions | UINT32_C(1) << k,
                              values | marks))
            return true;
    }
    return false;
}

/* Hidden subsets: `size` values of a unit whose places together are `size` cells; those cells lose
 * every other candidate. Values are chosen by recursion from `from`. */
static bool hidden_subset_from(const sudoku_logic *logic, sudoku_step *step, int unit, int size, int from, int chosen,
                               uint32_t values, uint32_t positions) {
    const sudoku_geometry *g = logic->geometry;
    if (chosen == size) {
        if (__builtin_popcount(positions) != size) return false;
        begin_step(step, size == 2 ? SUDOKU_HIDDEN_PAIR : SUDOKU_HIDDEN_TRIPLE);
        step->units[0] = unit;
        step->pattern_values = values;
        for (uint32_t p = positions; p != 0; p &= p - 1) {
            int cell = g->unit_cells[unit][__builtin_ctz(p)];
            add_pattern(step, cell);
            eliminate(logic, step, cell, ~values);
        }
        return step->elimination_count > 0;
    }
    for (int value = from; value <= g->size; value++) {
        uint32_t places = positions_of(logic, unit, value);
        int count = __builtin_popcount(places);
        if (count < 2 || count > size || __builtin_popcount(positions | places) > size) continue;
        if (hidden_subset_from(logic, step, unit, size, value + 1, chosen + 1, values | value_bit(value),
                               positions | places))
            return true;
    }
    return false;
}

static bool subset(const sudoku_logic *logic, sudoku_step *step, bool naked, int size) {
    for (int unit = 0; unit < logic->geometry->units; unit++) {
        if (naked ? naked_subset_from(logic, step, unit, size, 0, 0, 0, 0)
                  : hidden_subset_from(logic, step, unit, size, 1, 0, 0, 0))
            return true;
    }
    return false;
}

/* X-wing: in two rows (columns) a value has the same two places; it leaves those two columns (rows)
 * elsewhere. `kind` is the kind of the two base lines. */
static bool x_wing(const sudoku_logic *logic, sudoku_step *step, sudoku_unit_kind kind) {
    const sudoku_geometry *g = logic->geometry;
    int cover_kind = kind == SUDOKU_ROW ? SUDOKU_COLUMN : SUDOKU_ROW;
    for (int value = 1; value <= g->size; value++) {
        for (int a = 0; a < g->size; a++) {
            uint32_t places = positions_of(logic, kind * g->size + a, value);
            if (__builtin_popcount(places) != 2) continue;
            for (int b = a + 1; b < g->size; b++) {
                if (positions_of(logic, kind * g->size + b, value) != places) continue;
                begin_step(step, SUDOKU_X_WING);
                step->units[0] = kind * g->size + a;
                step->units[1] = kind * g->size + b;
                step->pattern_values = value_bit(value);
                for (int line = 0; line < 2; line++) {
                    for (uint32_t p = places; p != 0; p &= p - 1)
                        add_pattern(step, g->unit_cells[step->units[line]][__builtin_ctz(p)]);
                }
                for (uint32_t p = places; p != 0; p &= p - 1) {
                    int cover = cover_kind * g->size + __builtin_ctz(p);
                    for (int k = 0; k < g->size; k++) {
                        if (k != a && k != b) eliminate(logic, step, g->unit_cells[cover][k], value_bit(value));
                    }
                }
                if (step->elimination_count > 0) return true;
            }
        }
    }
    return false;
}

static bool guess(const sudoku_logic *logic, sudoku_step *step) {
    int best = -1, best_count = 33;
    for (int cell = 0; cell < logic->geometry->cells; cell++) {
        int count = __builtin_popcount(logic->candidates[cell]);
        if (logic->grid.cells[cell] == 0 && count < best_count) {
            best = cell;
            best_count = count;
        }
    }
    if (best < 0) return false;
    begin_step(step, SUDOKU_GUESS);
    add_pattern(step, best);
    step->pattern_values = logic->candidates[best];
    step->place_cell = best;
    step->place_value = logic->solution.cells[best];
    return true;
}

bool sudoku_logic_next(const sudoku_logic *logic, bool allow_guess, sudoku_step *step) {
    if (sudoku_logic_done(logic)) return false;
    return naked_single(logic, step) || hidden_single(logic, step) || intersection(logic, step, SUDOKU_POINTING) ||
           intersection(logic, step, SUDOKU_BOX_LINE) || subset(logic, step, true, 2) ||
           subset(logic, step, false, 2) || subset(logic, step, true, 3) || subset(logic, step, false, 3) ||
           x_wing(logic, step, SUDOKU_ROW) || x_wing(logic, step, SUDOKU_COLUMN) || (allow_guess && guess(logic, step));
}

void sudoku_logic_apply(sudoku_logic *logic, const sudoku_step *step) {
    if (step->place_cell >= 0) place(logic, step->place_cell, step->place_value);
    for (int k = 0; k < step->elimination_count; k++) {
        logic->candidates[step->eliminations[k].cell] &= ~step->eliminations[k].values;
    }
}

sudoku_difficulty sudoku_rate(const sudoku_grid *puzzle, const sudoku_grid *solution, sudoku_difficulty hardest_allowed,
                              bool *finished, int step_counts[SUDOKU_TECHNIQUES]) {
    sudoku_logic logic;
    sudoku_logic_start(&logic, puzzle, solution);
    sudoku_step step;
    sudoku_difficulty hardest = SUDOKU_SIMPLE;
    if (step_counts != NULL) memset(step_counts, 0, SUDOKU_TECHNIQUES * sizeof *step_counts);
    while (sudoku_logic_next(&logic, hardest_allowed == SUDOKU_EXPERT, &step)) {
        sudoku_difficulty needed = sudoku_technique_difficulty(step.technique);
        if (needed > hardest_allowed) break;
        if (needed > hardest) hardest = needed;
        if (step_counts != NULL) step_counts[step.technique]++;
        sudoku_logic_apply(&logic, &step);
    }
    *finished = sudoku_logic_done(&logic);
    return hardest;
}
