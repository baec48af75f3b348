/* Random grids and unique puzzles (see sudoku_generate.h). */
#include "core/sudoku/sudoku_generate.h"

#include <string.h>

#include "core/random/bounded_random.h"
#include "core/random/shuffle.h"
#include "core/sudoku/sudoku_solver.h"

/* Branch nodes a random fill may take before it restarts: fills of every size normally need about
 * one node per cell or fewer; the budget cuts off the rare search that wanders. */
enum { FILL_NODES_PER_CELL = 8 };
/* Branch nodes a uniqueness test may take; a removal whose test needs more is not made. 9 x 9 tests
 * never come near the first; on 16 x 16 and 25 x 25 grids with few givens left a test can take
 * seconds, and the smaller budget keeps a puzzle within the default time limit (with more givens). */
enum { UNIQUENESS_NODE_BUDGET = 4096, LARGE_GRID_NODE_BUDGET = 64 };

static const char *const symmetry_names[SUDOKU_SYMMETRIES] = {"none",   "rotate90", "rotate180",
                                                              "mirror", "flip",     "random"};

const char *sudoku_symmetry_name(sudoku_symmetry symmetry) { return symmetry_names[symmetry]; }

/* A uniformly random permutation of 0..n-1. */
static void random_order(rng *random, int n, int *order) {
    uint32_t perm[SUDOKU_MAX_CELLS];
    shuffle_permutation(SHUFFLE_FISHER_YATES, random, perm, (size_t)n, NULL);
    for (int k = 0; k < n; k++) order[k] = (int)perm[k];
}

/* A random line order that keeps bands (stacks) together: line_of[new] = old. */
static void random_line_order(rng *random, int box, int *line_of) {
    int bands[SUDOKU_MAX_BOX], within[SUDOKU_MAX_BOX];
    random_order(random, box, bands);
    for (int band = 0; band < box; band++) {
        random_order(random, box, within);
        for (int k = 0; k < box; k++) line_of[band * box + k] = bands[band] * box + within[k];
    }
}

/* Applies a uniformly random element of the validity-preserving group. */
static void random_transform(sudoku_grid *grid, rng *random) {
    int box = grid->box, size = box * box;
    int value_of[SUDOKU_MAX_SIZE], row_of[SUDOKU_MAX_SIZE], column_of[SUDOKU_MAX_SIZE];
    random_order(random, size, value_of);
    random_line_order(random, box, row_of);
    random_line_order(random, box, column_of);
    bool transpose = bounded_random(random, 2) == 1;
    sudoku_grid old = *grid;
    for (int row = 0; row < size; row++) {
        for (int column = 0; column < size; column++) {
            int from_row = row_of[row], from_column = column_of[column];
            int from = transpose ? from_column * size + from_row : from_row * size + from_column;
            grid->cells[row * size + column] = (uint8_t)(value_of[old.cells[from] - 1] + 1);
        }
    }
}

core_status sudoku_random_grid(int box, rng *random, const deadline *limit, sudoku_grid *grid) {
    sudoku_solver *solver = sudoku_solver_new(box);
    if (solver == NULL) return CORE_NO_MEMORY;
    sudoku_grid empty;
    sudoku_grid_clear(&empty, box);
    const sudoku_geometry *g = sudoku_geometry_of(box);
    sudoku_search search = {
        .solution_limit = 1, .node_limit = (uint64_t)g->cells * FILL_NODES_PER_CELL, .random = random, .limit = limit};
    sudoku_result result;
    core_status status;
    do {
        status = sudoku_solve(solver, &empty, &search, &result);
    } while (status == CORE_OK && result.solutions == 0);
    sudoku_solver_free(solver);
    if (status != CORE_OK) return status;
    *grid = result.first;
    random_transform(grid, random);
    return CORE_OK;
}

/* The cells of `cell`'s orbit under `symmetry` (1, 2 or 4 distinct cells). */
static int orbit(int size, sudoku_symmetry symmetry, int cell, int *cells) {
    int row = cell / size, column = cell % size, last = size - 1;
    int candidates[4] = {cell, cell, cell, cell};
    switch (symmetry) {
    case SUDOKU_SYMMETRY_ROTATE90:
        candidates[1] = column * size + (last - row);
        candidates[2] = (last - row) * size + (last - column);
        candidates[3] = (last - column) * size + row;
        break;
    case SUDOKU_SYMMETRY_ROTATE180: candidates[1] = (last - row) * size + (last - column); break;
    case SUDOKU_SYMMETRY_MIRROR: candidates[1] = row * size + (last - column); break;
    case SUDOKU_SYMMETRY_FLIP: candidates[1] = (last - row) * size + column; break;
    default: break;
    }
    int count = 0;
    for (int k = 0; k < 4; k++) {
        bool seen = false;
        for (int j = 0; j < count; j++) seen = seen || cells[j] == candidates[k];
        if (!seen) cells[count++] = candidates[k];
    }
    return count;
}

/* What a removal must keep, and the tools to test it. */
typedef struct removal {
    sudoku_solver *solver;
    const sudoku_grid *solution;
    sudoku_difficulty within; /* SUDOKU_EXPERT: unique is enough */
} removal;

static bool still_acceptable(const removal *r, const sudoku_grid *puzzle) {
    switch (r->within) {
    case SUDOKU_SIMPLE: return sudoku_solved_by_singles(r->solver, puzzle, false);
    case SUDOKU_EASY: return sudoku_solved_by_singles(r->solver, puzzle, true);
    case SUDOKU_INTERMEDIATE:
        if (sudoku_solved_by_singles(r->solver, puzzle, true)) return true;
        bool finished;
        sudoku_rate(puzzle, r->solution, SUDOKU_INTERMEDIATE, &finished, NULL);
        return finished;
    default: break;
    }
    if (sudoku_solved_by_singles(r->solver, puzzle, true)) return true;
    uint64_t budget = puzzle->box <= 3 ? UNIQUENESS_NODE_BUDGET : LARGE_GRID_NODE_BUDGET;
    sudoku_search search = {.solution_limit = 2, .node_limit = budget};
    sudoku_result result;
    sudoku_solve(r->solver, puzzle, &search, &result);
    return result.exhausted && result.solutions == 1;
}

/* Removes givens from the full `puzzle`, an orbit at a time in random order, while it stays
 * acceptable. */
static core_status remove_givens(const removal *r, sudoku_grid *puzzle, sudoku_symmetry symmetry, rng *random,
                                 const deadline *limit) {
    int size = puzzle->box * puzzle->box, cells = size * size;
    int order[SUDOKU_MAX_CELLS];
    random_order(random, cells, order);
    for (int k = 0; k < cells; k++) {
        if (deadline_expired(limit)) return CORE_DEADLINE;
        int members[4], count = orbit(size, symmetry, order[k], members);
        if (puzzle->cells[members[0]] == 0) continue; /* the orbit went already */
        uint8_t kept[4];
        for (int j = 0; j < count; j++) {
            kept[j] = puzzle->cells[members[j]];
            puzzle->cells[members[j]] = 0;
        }
        if (!still_acceptable(r, puzzle)) {
            for (int j = 0; j < count; j++) puzzle->cells[members[j]] = kept[j];
        }
    }
    return CORE_OK;
}

/* One attempt: a grid and a puzzle from it, rated. */
static core_status attempt(sudoku_solver *solver, int box, int difficulty, sudoku_symmetry symmetry, rng *random,
                           const deadline *limit, sudoku_generated *out) {
    core_status status = sudoku_random_grid(box, random, limit, &out->solution);
    if (status != CORE_OK) return status;
    out->puzzle = out->solution;
    removal r = {solver, &out->solution, difficulty == SUDOKU_ANY_DIFFICULTY ? SUDOKU_EXPERT : difficulty};
    status = remove_givens(&r, &out->puzzle, symmetry, random, limit);
    if (status != CORE_OK) return status;
    bool finished;
    out->rating = sudoku_rate(&out->puzzle, &out->solution, SUDOKU_EXPERT, &finished, NULL);
    return CORE_OK;
}

core_status sudoku_generate(int box, int difficulty, sudoku_symmetry symmetry, rng *random, const deadline *limit,
                            sudoku_generated *out) {
    if (symmetry == SUDOKU_SYMMETRY_RANDOM) symmetry = (sudoku_symmetry)bounded_random(random, SUDOKU_SYMMETRY_RANDOM);
    out->symmetry = symmetry;
    sudoku_solver *solver = sudoku_solver_new(box);
    if (solver == NULL) return CORE_NO_MEMORY;
    core_status status;
    out->attempts = 0;
    do {
        out->attempts++;
        status = attempt(solver, box, difficulty, symmetry, random, limit, out);
    } while (status == CORE_OK && difficulty != SUDOKU_ANY_DIFFICULTY && (int)out->rating != difficulty);
    sudoku_solver_free(solver);
    return status;
}
