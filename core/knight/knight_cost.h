/* What finding a knight's tour costs on this machine, before it runs: the constructions timed at
 * start-up, so that a board whose tour cannot be built within its time limit is known at once.
 *
 * The model: seconds = squares * (the constructions' time a square + first touching the bytes they
 * keep a square). The "auto" algorithm builds the tour of every board of KNIGHT_COST_MIN_SQUARES or
 * more that no theorem rules out (such a board has both sides of 3 or more; only boards of at most
 * 4 x 4 or 3 x 8 are searched): closed-tour blocks, the 3-row and 4-row strips, the odd block among
 * closed ones (core/knight/knight_tour.c), each in time linear in the squares, plus fixed costs
 * (pieces searched once, windows searched under node limits) that the model leaves out.
 *   - The constructions: the fastest of KNIGHT_COST_RUNS runs of the real "auto" entry on two boards,
 *     the block construction (KNIGHT_COST_BLOCKS_SIDE square, closed) and the 3-row one (3 x
 *     KNIGHT_COST_STRIP_LENGTH), the smaller of their times a square kept: the fastest kinds per
 *     square here (best of several runs, memory already touched, in ns a square: 3-row 6.3, blocks 6.8,
 *     odd block 8, 3-row strip of odd length 7.8, 4-row 8.6; on boards of millions of squares 9 to 14).
 *     The first runs pay for the pieces searched on first use and for fresh memory, so the fastest is
 *     the construction alone.
 *   - Fresh memory: a large board's arrays (KNIGHT_COST_BYTES_PER_SQUARE: the path and the
 *     construction's two links a square) come fresh from the kernel (glibc maps an allocation of 32 MB
 *     or more afresh every time, and smaller ones whenever its heap was given back), and the first
 *     touch of each page costs a page fault: KNIGHT_COST_FRESH_BYTES mapped and touched, fastest of
 *     KNIGHT_COST_RUNS. In this virtual machine a fault takes about 10 us (2.5 ns a byte, 30 ns a
 *     square), the larger part of a large board's time: 2000 x 2000 took 55 ms on touched memory, 250
 *     ms on fresh.
 * Calibrated so (about 4 ms of processor time), the model said 35 to 40 ms for 1000 x 1000 (measured:
 * 60 to 70 ms on fresh memory, 9 ms on touched), 2000 x 2000 in about 140 ms.
 * A board whose arrays reuse memory already touched takes a fraction of the estimate (down to about
 * a sixth here), which the refusal's margin (api/cost_estimates.h) covers only in part: near the line
 * a medium board may be refused that would have fit on a warm heap. "warnsdorff" (how many walks and
 * how far each goes before it is stuck are not told by the board), "backtracking" (exponential) and
 * the small boards (their cost is the fixed costs) are not estimated. */
#ifndef PUZZLED_CORE_KNIGHT_COST_H
#define PUZZLED_CORE_KNIGHT_COST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/knight/knight_tour.h"

/* The boards timed at calibration, the runs of each (the fastest counts), and the fresh memory timed. */
#define KNIGHT_COST_BLOCKS_SIDE 128
#define KNIGHT_COST_STRIP_LENGTH 4000
#define KNIGHT_COST_RUNS 3
#define KNIGHT_COST_FRESH_BYTES (256 * 1024)

/* The bytes a construction keeps a square: the path (one square index) and the builder's two links. */
#define KNIGHT_COST_BYTES_PER_SQUARE (3 * sizeof(uint32_t))

/* The smallest board estimated: below, the fixed costs weigh most, and no estimate keeps such boards
 * off the I/O thread's small work (a construction does not poll its deadline, and its first use
 * searches pieces). */
#define KNIGHT_COST_MIN_SQUARES 65536u

typedef struct knight_cost {
    double construction_seconds; /* a square, on memory already touched */
    double fresh_seconds;        /* first touching one square's KNIGHT_COST_BYTES_PER_SQUARE */
} knight_cost;

/* Times the constructions and fresh memory (processor time of the calling thread) and returns the
 * model. Runs on the calling thread, at start-up, before any request; searches and caches the pieces
 * of the two boards' constructions. */
knight_cost knight_cost_calibrate(void);

/* Whether the model tells the cost of `request` (checked: sides >= 1, start on the board): algorithm
 * "auto", no theorem ruling the tour out, at least KNIGHT_COST_MIN_SQUARES squares. */
bool knight_cost_estimated(const kt_request *request);

/* The model's seconds for a board of `squares` squares. */
double knight_cost_seconds(const knight_cost *cost, uint64_t squares);

/* The most squares, at most `most`, whose time the model says is at most `seconds`; 0 for none. */
uint64_t knight_cost_largest_squares(const knight_cost *cost, double seconds, uint64_t most);

#endif
