/* The batched constellation search (queens_batch.h) in vector lanes, written once for every vector
 * width: each of LANES lanes holds one parent node and takes one of its candidates per turn; a lane
 * whose parent has none left is refilled with the batch's next parents by an expanding load, and the
 * kept children of all lanes are compressed into the next row's batch, so every turn works on LANES
 * candidates without a data-dependent branch. The same nodes as the portable search, in the same
 * batches.
 *
 * Not a header of declarations: the body of one search, included by the file of each instruction set
 * (queens_batch_avx512.c, queens_batch_avx2.c) after it defines LANES_SEARCH (the function's name),
 * LANES_TARGET (its target attribute), LANES, the types vec and lane_mask, and these operations on
 * LANES 32-bit lanes: v_set1, v_zero, v_and, v_or, v_xor, v_sub, v_andnot (~a & b), v_or3, v_shl, v_shr (all
 * lanes by one count), v_nonzero (the lanes of `within` not zero), v_zero_lanes, v_expand_load (the
 * next values from memory into the lanes of a mask, in order), v_compress_store (the lanes of a mask,
 * in order, to memory: a whole vector is written) and lane_count (the lanes in a mask). */

/* The parents in the lanes, with the candidates they have not yet taken in `free`. */
typedef struct lanes {
    vec left, right, cols, free;
} lanes;

/* Loads the next parents (from *next) into the lanes with no candidate left; returns the lanes that
 * have one. Past the batch's end the lanes load its zero padding, and stay empty. */
LANES_TARGET static inline lane_mask refill(lanes *l, const batch *parents, int *next, int count) {
    lane_mask empty = v_zero_lanes(l->free);
    l->left = v_expand_load(l->left, empty, &parents->left[*next]);
    l->right = v_expand_load(l->right, empty, &parents->right[*next]);
    l->cols = v_expand_load(l->cols, empty, &parents->cols[*next]);
    l->free = v_expand_load(l->free, empty, &parents->free[*next]);
    *next += lane_count(empty);
    *next = *next < count ? *next : count;
    return v_nonzero((lane_mask) ~(lane_mask)0, l->free);
}

/* One child per lane: the lane's next candidate taken, the masks moved down `gap` rows. */
typedef struct children {
    vec left, right, cols;
} children;

LANES_TARGET static inline children take(lanes *l, int gap) {
    vec bit = v_and(l->free, v_sub(v_zero(), l->free));
    l->free = v_xor(l->free, bit);
    return (children){v_shl(v_or(l->left, bit), gap), v_shr(v_or(l->right, bit), gap), v_or(l->cols, bit)};
}

/* The squares of a row `allowed` leaves free below children c, moved `gap` rows further down. */
LANES_TARGET static inline vec free_below(children c, int gap, uint32_t allowed) {
    return v_andnot(v_or3(v_shl(c.left, gap), v_shr(c.right, gap), c.cols), v_set1(allowed));
}

/* The solutions the children in `live` lanes complete, when one or two rows are left below them (as
 * the portable search's last rows: with two, the two columns left are tried both ways). */
LANES_TARGET static inline int completions(const search_plan *plan, int d, children c, lane_mask live) {
    vec next_free = free_below(c, 0, plan->allowed[d + 1]);
    if (d + 2 == plan->depth) return lane_count(v_nonzero(live, next_free));
    vec remaining = v_andnot(c.cols, v_set1(plan->columns));
    vec low = v_and(remaining, v_sub(v_zero(), remaining));
    vec high = v_xor(remaining, low);
    int gap = plan->gap[d + 1];
    uint32_t last = plan->allowed[d + 2];
    children low_first = {v_or(c.left, low), v_or(c.right, low), v_zero()};
    children high_first = {v_or(c.left, high), v_or(c.right, high), v_zero()};
    /* the last row's square in the other column, free below the first choice's diagonals */
    vec low_then_high = v_and(free_below(low_first, gap, last), high);
    vec high_then_low = v_and(free_below(high_first, gap, last), low);
    lane_mask low_ok = v_nonzero(v_nonzero(live, v_and(next_free, low)), low_then_high);
    lane_mask high_ok = v_nonzero(v_nonzero(live, v_and(next_free, high)), high_then_low);
    return lane_count(low_ok) + lane_count(high_ok);
}

LANES_TARGET void LANES_SEARCH(batch_search *s, int d, int count) {
    if (batch_search_stopping(s, d)) return;
    const search_plan *plan = s->plan;
    const batch *parents = &s->rows[d];
    for (int pad = 0; pad < BATCH_LANES; pad++) s->rows[d].free[count + pad] = 0;
    lanes l = {v_zero(), v_zero(), v_zero(), v_zero()};
    int next = 0, gap = plan->gap[d];
    lane_mask live;
    if (d + 3 >= plan->depth) {
        uint64_t found = 0;
        while ((live = refill(&l, parents, &next, count)) != 0)
            found += (uint64_t)completions(plan, d, take(&l, gap), live);
        s->found += found;
        return;
    }
    batch *below = &s->rows[d + 1];
    uint32_t next_allowed = plan->allowed[d + 1], after_allowed = plan->allowed[d + 2];
    int next_gap = plan->gap[d + 1], out = 0;
    while ((live = refill(&l, parents, &next, count)) != 0) {
        children c = take(&l, gap);
        vec child_free = free_below(c, 0, next_allowed);
        /* kept when its row and, looking ahead as NQueensFAF does, the row after it keep a free square */
        lane_mask keep = v_nonzero(v_nonzero(live, child_free), free_below(c, next_gap, after_allowed));
        v_compress_store(&below->left[out], keep, c.left);
        v_compress_store(&below->right[out], keep, c.right);
        v_compress_store(&below->cols[out], keep, c.cols);
        v_compress_store(&below->free[out], keep, child_free);
        out += lane_count(keep);
        if (out > BATCH - LANES) {
            LANES_SEARCH(s, d + 1, out);
            out = 0;
            if (s->stopped) return;
        }
    }
    if (out != 0) LANES_SEARCH(s, d + 1, out);
}
