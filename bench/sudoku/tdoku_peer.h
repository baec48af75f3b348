/* tdoku (t-dillon/tdoku, the fastest published 9 x 9 solver) as a peer, loaded at run time from the
 * folder where the user built it (its libtdoku_shared.so; bench/sudoku/README.md says how to build
 * it). Nothing of tdoku is compiled into puzzled or committed here: without the folder, the rows that
 * need it are skipped with a note. */
#ifndef PUZZLED_BENCH_SUDOKU_TDOKU_PEER_H
#define PUZZLED_BENCH_SUDOKU_TDOKU_PEER_H

#include <stddef.h>
#include <stdint.h>

/* tdoku's C entry point: the number of solutions of an 81-character puzzle ('.' for empty), up to
 * `limit`, and the guesses it made. */
typedef size_t tdoku_solve_fn(const char *puzzle, size_t limit, uint32_t configuration, char *solution,
                              size_t *guesses);

/* tdoku's solver from the folder named by the environment variable TDOKU_DIR, or NULL (with a note on
 * stderr saying why) when it is not set or holds no usable library. */
tdoku_solve_fn *tdoku_load(void);

#endif
