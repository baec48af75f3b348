/* Checking a claimed knight's tour: a path of squares on a rows x cols board must move by a knight's
 * move at every step, visit no square twice, visit every square, and, when closed, end a knight's
 * move from where it began. The first problem along the path is reported, located. Kept apart from
 * the tour finders (knight_tour*.c): it shares nothing with them but the board. */
#ifndef PUZZLED_CORE_KNIGHT_TOUR_VERIFY_H
#define PUZZLED_CORE_KNIGHT_TOUR_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/common/status.h"

typedef enum kt_problem {
    KT_PROBLEM_NONE,            /* a valid tour */
    KT_PROBLEM_NOT_A_MOVE,      /* path[step] is not a knight's move from path[step - 1] */
    KT_PROBLEM_REPEATED_SQUARE, /* path[step] was already visited at path[first_visit] */
    KT_PROBLEM_MISSING_SQUARE,  /* the path ends without visiting `square` (the first missing one in
                                   row-major order) and `missing` squares in all */
    KT_PROBLEM_NOT_CLOSED,      /* a closed tour whose last square is not a knight's move from its first */
} kt_problem;

typedef struct kt_verdict {
    kt_problem problem;
    size_t step;        /* NOT_A_MOVE, REPEATED_SQUARE: index in the path */
    size_t first_visit; /* REPEATED_SQUARE */
    uint32_t square;    /* MISSING_SQUARE: row * cols + col */
    uint64_t missing;   /* MISSING_SQUARE */
} kt_verdict;

/* True when the two squares (row * cols + col) are a knight's move apart. */
bool knight_move_between(uint32_t from, uint32_t to, uint32_t cols);

/* Checks `path` (length squares, each row * cols + col on the board: the caller checked) in order.
 * CORE_NO_MEMORY when the visited set cannot be allocated (rows * cols bytes). */
core_status knight_tour_verify(uint32_t rows, uint32_t cols, bool closed, const uint32_t *path, size_t length,
                               kt_verdict *verdict);

#endif
