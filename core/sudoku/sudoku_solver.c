/* The exact search (see sudoku_solver.h). The state of depth d is a row of the per-depth arrays:
 * candidates and values of every cell; a branch copies its row to the next depth and assigns there,
 * so backtracking is free. Assigning removes the value from every peer; a peer left with one
 * candidate is queued and assigned in turn (naked singles); when the queue is empty every unit is
 * scanned for values with exactly one place (hidden singles) or none (a contradiction). */
#include "core/sudoku/sudoku_solver.h"

#include <stdlib.h>
#include <string.h>

#include "core/random/shuffle.h"
#include "core/sudoku/sudoku_band9.h"
#include "core/common/progress.h"

enum { DEADLINE_POLL_NODES = 1024 };

struct sudoku_solver {
    const sudoku_geometry *geometry;
    uint32_t all_values;  /* the candidate mask of an empty cell */
    uint32_t *candidates; /* [depth][cell] */
    uint8_t *values;      /* [depth][cell], 0 while unfilled */
    uint32_t *placed;     /* [depth][unit]: the values already placed in the unit */
    int *unfilled;        /* [depth] */
    uint16_t *queue;      /* cells left with a single candidate, waiting to be assigned */
    int queue_length;
    /* the running search */
    const sudoku_search *search;
    sudoku_result *result;
    bool stop;
    core_status status;
};

sudoku_solver *sudoku_solver_new(int box) {
    sudoku_solver *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    s->geometry = sudoku_geometry_of(box);
    int cells = s->geometry->cells, depths = cells + 1;
    s->all_values = (uint32_t)((UINT64_C(1) << s->geometry->size) - 1);
    s->candidates = malloc((size_t)depths * (size_t)cells * sizeof *s->candidates);
    s->values = malloc((size_t)depths * (size_t)cells * sizeof *s->values);
    s->placed = malloc((size_t)depths * (size_t)s->geometry->units * sizeof *s->placed);
    s->unfilled = malloc((size_t)depths * sizeof *s->unfilled);
    s->queue = malloc((size_t)cells * sizeof *s->queue);
    if (s->candidates == NULL || s->values == NULL || s->placed == NULL || s->unfilled == NULL || s->queue == NULL) {
        sudoku_solver_free(s);
        return NULL;
    }
    return s;
}

void sudoku_solver_free(sudoku_solver *s) {
    if (s == NULL) return;
    free(s->candidates);
    free(s->values);
    free(s->placed);
    free(s->unfilled);
    free(s->queue);
    free(s);
}

static inline int lowest_value(uint32_t mask) { return __builtin_ctz(mask) + 1; }
static inline bool single_bit(uint32_t mask) { return (mask & (mask - 1)) == 0; }

/* Places `value` in `cell` at `depth` and removes it from the peers; false on a contradiction (a
 * peer left without candidates, or the value no longer possible here). */
static bool assign(sudoku_solver *s, int depth, int cell, int value) {
    const sudoku_geometry *g = s->geometry;
    uint32_t *candidates = s->candidates + (size_t)depth * (size_t)g->cells;
    uint8_t *values = s->values + (size_t)depth * (size_t)g->cells;
    uint32_t bit = UINT32_C(1) << (value - 1);
    if (values[cell] != 0) return values[cell] == value;
    if ((candidates[cell] & bit) == 0) return false;
    values[cell] = (uint8_t)value;
    candidates[cell] = bit;
    s->unfilled[depth]--;
    uint32_t *placed = s->placed + (size_t)depth * (size_t)g->units;
    for (int k = 0; k < 3; k++) placed[g->cell_units[cell][k]] |= bit;
    /* A filled peer keeps its value's bit alone: it is skipped unless it holds this value too, and
     * then emptying it reports the conflict. */
    const uint16_t *peers = g->peers[cell];
    for (int k = 0; k < g->peer_count; k++) {
        int peer = peers[k];
        if ((candidates[peer] & bit) == 0) continue;
        uint32_t left = candidates[peer] &= ~bit;
        if (left == 0) return false;
        if (single_bit(left)) s->queue[s->queue_length++] = (uint16_t)peer;
    }
    return true;
}

/* Assigns every queued naked single. */
static bool drain_queue(sudoku_solver *s, int depth) {
    const uint32_t *candidates = s->candidates + (size_t)depth * (size_t)s->geometry->cells;
    while (s->queue_length > 0) {
        int cell = s->queue[--s->queue_length];
        if (!assign(s, depth, cell, lowest_value(candidates[cell]))) return false;
    }
    return true;
}

/* One pass of hidden singles over every unit not yet full; *progress tells whether anything was
 * placed. A filled cell's candidates are its value alone, so a placed value counts as "once" and is
 * taken out with the unit's placed mask. */
static bool hidden_singles(sudoku_solver *s, int depth, bool *progress) {
    const sudoku_geometry *g = s->geometry;
    const uint32_t *candidates = s->candidates + (size_t)depth * (size_t)g->cells;
    const uint8_t *values = s->values + (size_t)depth * (size_t)g->cells;
    const uint32_t *placed = s->placed + (size_t)depth * (size_t)g->units;
    for (int unit = 0; unit < g->units; unit++) {
        if (placed[unit] == s->all_values) continue;
        const uint16_t *cells = g->unit_cells[unit];
        uint32_t once = 0, twice = 0;
        for (int k = 0; k < g->size; k++) {
            uint32_t mask = candidates[cells[k]];
            twice |= once & mask;
            once |= mask;
        }
        if (once != s->all_values) return false; /* a value with no place left */
        uint32_t hidden = once & ~twice & ~placed[unit];
        while (hidden != 0) {
            uint32_t bit = hidden & (~hidden + 1);
            hidden &= hidden - 1;
            for (int k = 0; k < g->size; k++) {
                if (values[cells[k]] == 0 && (candidates[cells[k]] & bit) != 0) {
                    if (!assign(s, depth, cells[k], lowest_value(bit)) || !drain_queue(s, depth)) return false;
                    *progress = true;
                    break;
                }
            }
        }
    }
    return true;
}

static bool propagate(sudoku_solver *s, int depth) {
    bool progress = true;
    while (progress) {
        progress = false;
        if (!drain_queue(s, depth) || !hidden_singles(s, depth, &progress)) return false;
    }
    return true;
}

/* The unfilled cell with the fewest candidates (the first such cell in reading order). Unfilled
 * cells have two candidates or more once propagation is done. */
static int branch_cell(const sudoku_solver *s, int depth) {
    const sudoku_geometry *g = s->geometry;
    const uint32_t *candidates = s->candidates + (size_t)depth * (size_t)g->cells;
    const uint8_t *values = s->values + (size_t)depth * (size_t)g->cells;
    int best = -1, best_count = 33;
    for (int cell = 0; cell < g->cells; cell++) {
        if (values[cell] != 0) continue;
        uint32_t rest = candidates[cell] & (candidates[cell] - 1);
        if (single_bit(rest)) return cell; /* two candidates: none has fewer */
        int count = __builtin_popcount(candidates[cell]);
        if (count < best_count) {
            best = cell;
            best_count = count;
        }
    }
    return best;
}

static void record_solution(sudoku_solver *s, int depth) {
    sudoku_result *result = s->result;
    if (result->solutions == 0) {
        const sudoku_geometry *g = s->geometry;
        result->first.box = g->box;
        memset(result->first.cells, 0, sizeof result->first.cells);
        memcpy(result->first.cells, s->values + (size_t)depth * (size_t)g->cells, (size_t)g->cells);
    }
    progress_add(s->search->found, 1);
    if (++result->solutions >= s->search->solution_limit) s->stop = true;
}

/* Counts one node; false when the search must stop (deadline or node limit). */
static bool count_node(sudoku_solver *s) {
    uint64_t nodes = ++s->result->nodes;
    if (s->search->node_limit != 0 && nodes > s->search->node_limit) {
        s->result->node_limit_hit = true;
        s->stop = true;
    } else if (nodes % DEADLINE_POLL_NODES == 0 && s->search->limit != NULL && deadline_expired(s->search->limit)) {
        s->status = CORE_DEADLINE;
        s->stop = true;
    }
    return !s->stop;
}

/* The candidate values of a branch, in the order they are tried. */
static int branch_values(sudoku_solver *s, uint32_t mask, int *values) {
    int count = 0;
    for (; mask != 0; mask &= mask - 1) values[count++] = lowest_value(mask);
    if (s->search->random != NULL) {
        uint32_t order[SUDOKU_MAX_SIZE];
        int in_order[SUDOKU_MAX_SIZE];
        memcpy(in_order, values, (size_t)count * sizeof *values);
        shuffle_permutation(SHUFFLE_FISHER_YATES, s->search->random, order, (size_t)count, NULL);
        for (int k = 0; k < count; k++) values[k] = in_order[order[k]];
    }
    return count;
}

/* Searches below `depth`, whose state has been assigned but not yet propagated. */
static void search_from(sudoku_solver *s, int depth) {
    if (!count_node(s) || !propagate(s, depth)) return;
    if (s->unfilled[depth] == 0) {
        record_solution(s, depth);
        return;
    }
    const sudoku_geometry *g = s->geometry;
    int cell = branch_cell(s, depth);
    int values[SUDOKU_MAX_SIZE];
    int count = branch_values(s, s->candidates[(size_t)depth * (size_t)g->cells + (size_t)cell], values);
    size_t row = (size_t)g->cells;
    for (int k = 0; k < count && !s->stop; k++) {
        memcpy(s->candidates + (size_t)(depth + 1) * row, s->candidates + (size_t)depth * row,
               row * sizeof *s->candidates);
        memcpy(s->values + (size_t)(depth + 1) * row, s->values + (size_t)depth * row, row);
        memcpy(s->placed + (size_t)(depth + 1) * (size_t)g->units, s->placed + (size_t)depth * (size_t)g->units,
               (size_t)g->units * sizeof *s->placed);
        s->unfilled[depth + 1] = s->unfilled[depth];
        s->queue_length = 0;
        if (assign(s, depth + 1, cell, values[k])) search_from(s, depth + 1);
    }
}

/* Depth 0 holds the givens, assigned but not propagated; false when two givens conflict. */
static bool start(sudoku_solver *s, const sudoku_grid *puzzle) {
    const sudoku_geometry *g = s->geometry;
    s->queue_length = 0;
    for (int cell = 0; cell < g->cells; cell++) {
        s->candidates[cell] = s->all_values;
        s->values[cell] = 0;
    }
    s->unfilled[0] = g->cells;
    memset(s->placed, 0, (size_t)g->units * sizeof *s->placed);
    for (int cell = 0; cell < g->cells; cell++) {
        if (puzzle->cells[cell] != 0 && !assign(s, 0, cell, puzzle->cells[cell])) return false;
    }
    return true;
}

core_status sudoku_solve_general(sudoku_solver *s, const sudoku_grid *puzzle, const sudoku_search *search,
                                 sudoku_result *result) {
    memset(result, 0, sizeof *result);
    s->search = search;
    s->result = result;
    s->stop = false;
    s->status = CORE_OK;
    if (start(s, puzzle)) search_from(s, 0);
    result->exhausted = !s->stop;
    return s->status;
}

/* 9 x 9 in a fixed order goes to the faster band search; a random order stays general, so that a
 * seed keeps drawing the same grids (their order of candidates is the general search's). */
static bool takes_band_search(const sudoku_grid *puzzle, const sudoku_search *search) {
    return puzzle->box == 3 && search->random == NULL;
}

core_status sudoku_solve(sudoku_solver *s, const sudoku_grid *puzzle, const sudoku_search *search,
                         sudoku_result *result) {
    if (takes_band_search(puzzle, search)) return sudoku_band9_solve(puzzle, search, result);
    return sudoku_solve_general(s, puzzle, search, result);
}

bool sudoku_solved_by_singles(sudoku_solver *s, const sudoku_grid *puzzle, bool hidden_singles) {
    if (!start(s, puzzle)) return false;
    if (!hidden_singles) return drain_queue(s, 0) && s->unfilled[0] == 0;
    return propagate(s, 0) && s->unfilled[0] == 0;
}

core_status sudoku_solve_once(const sudoku_grid *puzzle, const sudoku_search *search, sudoku_result *result) {
    if (takes_band_search(puzzle, search)) return sudoku_band9_solve(puzzle, search, result); /* no solver needed */
    sudoku_solver *solver = sudoku_solver_new(puzzle->box);
    if (solver == NULL) return CORE_NO_MEMORY;
    core_status status = sudoku_solve(solver, puzzle, search, result);
    sudoku_solver_free(solver);
    return status;
}
