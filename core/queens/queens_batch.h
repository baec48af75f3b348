/* The batched search of one border constellation (queens_constellation.h), shared by its row
 * searches: the portable one (queens_constellation.c) and the ones in vector lanes
 * (queens_batch_lanes.h, in AVX-512 and in AVX2). The rows left to fill are planned first; then all the nodes of one row
 * (up to BATCH of them) are expanded together into the next row's batch, which is searched before the
 * row goes on (breadth-first within a batch, depth-first across batches). Private to core/queens. */
#ifndef PUZZLED_CORE_QUEENS_BATCH_H
#define PUZZLED_CORE_QUEENS_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/queens/queens_poll.h"
#include "core/queens/queens_solutions.h"

/* The rows left to fill, top to bottom: the columns no border queen attacks in each, and how many
 * rows down the next one is (the border queens' rows are skipped: their lines are already out). */
typedef struct search_plan {
    int depth;
    uint32_t columns; /* the columns no border queen takes: one per row to fill */
    uint32_t allowed[QUEENS_MAX_N];
    int gap[QUEENS_MAX_N];
} search_plan;

/* Most nodes of one row's batch, and the slack after them: a vector search reads and writes whole
 * vectors of BATCH_LANES nodes past the last one. */
#define BATCH 256
#define BATCH_LANES 16

/* The nodes of one row in the classic bitboards (Somers): occupied columns and the diagonals running
 * down-left and down-right, shifted by the gap to the next row; and the row's free squares. */
typedef struct batch {
    uint32_t left[BATCH + BATCH_LANES], right[BATCH + BATCH_LANES], cols[BATCH + BATCH_LANES],
        free[BATCH + BATCH_LANES];
} batch;

/* Batches above the last BATCH_POLL_DEPTH rows of a search are counted, and the poll consulted every
 * BATCH_POLL_INTERVAL of them: rare enough to cost nothing, frequent enough to stop within
 * milliseconds. */
#define BATCH_POLL_DEPTH 6
#define BATCH_POLL_INTERVAL 4

typedef struct batch_search {
    const search_plan *plan;
    batch *rows; /* one batch per row of the plan */
    queens_poll *poll;
    int poll_below; /* rows above this one consult the poll */
    unsigned polls;
    bool stopped;
    uint64_t found;
} batch_search;

/* True when the search must stop before row d's batch: the poll said so, now or before. */
static inline bool batch_search_stopping(batch_search *s, int d) {
    if (d < s->poll_below && ++s->polls % BATCH_POLL_INTERVAL == 0 && queens_poll_stopped(s->poll)) {
        s->stopped = true;
    }
    return s->stopped;
}

/* Searches the `count` nodes of row d's batch and, through the batches below, every completion of
 * them, adding the solutions to s->found; returns early once s->stopped. The portable search, and
 * the same in AVX-512 lanes (only where queens_batch_avx512_supported()) and in AVX2 lanes (only
 * where queens_batch_avx2_supported()). */
void queens_batch_search_portable(batch_search *s, int d, int count);
void queens_batch_search_avx512(batch_search *s, int d, int count);
void queens_batch_search_avx2(batch_search *s, int d, int count);
bool queens_batch_avx512_supported(void);
bool queens_batch_avx2_supported(void);

#endif
