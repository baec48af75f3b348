/* Solving as a person does, one named step at a time, on pencil marks (the candidates each empty
 * cell still has once the filled cells' values are removed from their peers). Each step is the first
 * that applies of, in order: naked single, hidden single, pointing pair/triple, box/line reduction,
 * naked pair, hidden pair, naked triple, hidden triple, X-wing, and as the last resort a guess (the
 * value the solution has in a cell with the fewest candidates). The rating of a puzzle is the
 * hardest kind of step needed to the end, on qqwing's scale: simple (naked singles alone), easy
 * (hidden singles), intermediate (any pattern short of guessing), expert (a guess). */
#ifndef PUZZLED_CORE_SUDOKU_LOGIC_H
#define PUZZLED_CORE_SUDOKU_LOGIC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/sudoku/sudoku_grid.h"

typedef enum sudoku_technique {
    SUDOKU_NAKED_SINGLE,
    SUDOKU_HIDDEN_SINGLE,
    SUDOKU_POINTING,
    SUDOKU_BOX_LINE,
    SUDOKU_NAKED_PAIR,
    SUDOKU_HIDDEN_PAIR,
    SUDOKU_NAKED_TRIPLE,
    SUDOKU_HIDDEN_TRIPLE,
    SUDOKU_X_WING,
    SUDOKU_GUESS,
    SUDOKU_TECHNIQUES
} sudoku_technique;

typedef enum sudoku_difficulty {
    SUDOKU_SIMPLE,
    SUDOKU_EASY,
    SUDOKU_INTERMEDIATE,
    SUDOKU_EXPERT,
    SUDOKU_DIFFICULTIES
} sudoku_difficulty;

enum { SUDOKU_MAX_PATTERN = 2 * SUDOKU_MAX_BOX, SUDOKU_MAX_ELIMINATIONS = 2 * SUDOKU_MAX_SIZE };

typedef struct sudoku_elimination {
    int cell;
    uint32_t values; /* bit v-1: value v is no longer possible here */
} sudoku_elimination;

typedef struct sudoku_step {
    sudoku_technique technique;
    int units[2];      /* the units the pattern lies in, -1 when none */
    int pattern_count; /* the cells the reasoning looks at */
    int pattern[SUDOKU_MAX_PATTERN];
    uint32_t pattern_values;     /* the values of the pattern */
    int place_cell, place_value; /* singles and guesses place a value; else -1 and 0 */
    int elimination_count;       /* the other steps remove candidates */
    sudoku_elimination eliminations[SUDOKU_MAX_ELIMINATIONS];
} sudoku_step;

typedef struct sudoku_logic {
    const sudoku_geometry *geometry;
    sudoku_grid grid;                      /* filled so far */
    uint32_t candidates[SUDOKU_MAX_CELLS]; /* pencil marks of the empty cells; 0 for filled ones */
    sudoku_grid solution;                  /* what guesses place */
} sudoku_logic;

/* Starts from `puzzle` (without conflicts) whose solution is `solution`. */
void sudoku_logic_start(sudoku_logic *logic, const sudoku_grid *puzzle, const sudoku_grid *solution);

/* Finds the next step without applying it; false when the grid is full. `allow_guess` false stops
 * (returning false) where only a guess would go on. */
bool sudoku_logic_next(const sudoku_logic *logic, bool allow_guess, sudoku_step *step);

/* Applies a step found by sudoku_logic_next. */
void sudoku_logic_apply(sudoku_logic *logic, const sudoku_step *step);

/* Whether the grid is full. */
bool sudoku_logic_done(const sudoku_logic *logic);

/* The difficulty a technique stands for, and the snake_case name of a technique or difficulty. */
sudoku_difficulty sudoku_technique_difficulty(sudoku_technique technique);
const char *sudoku_technique_name(sudoku_technique technique);
const char *sudoku_difficulty_name(sudoku_difficulty difficulty);

/* Solves to the end with techniques up to `hardest_allowed` (SUDOKU_EXPERT: every one) and returns
 * the hardest difficulty used; *finished tells whether the grid was filled (it is not when a harder
 * technique was needed). `step_counts`, if not NULL, gets the number of steps of each technique. */
sudoku_difficulty sudoku_rate(const sudoku_grid *puzzle, const sudoku_grid *solution, sudoku_difficulty hardest_allowed,
                              bool *finished, int step_counts[SUDOKU_TECHNIQUES]);

#endif
