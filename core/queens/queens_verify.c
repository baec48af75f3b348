/* Attacking pairs of a placement of queens (see queens_verify.h).
 *
 * Each of the four line kinds is bucketed by a counting sort over the row-major order of the queens,
 * so every line lists its queens in that order. Pairs are counted per line (c queens: c(c-1)/2); the
 * first pairs are listed by walking the queens in order and merging, for each, the later members of
 * its four lines (two distinct squares share at most one line, so no pair is seen twice). */
#include "core/queens/queens_verify.h"

#include <stdlib.h>

enum { LINE_KINDS = 4 };

/* The queens of one kind of line, bucketed: members[start[l] .. start[l+1]) are the queens (indices
 * into the sorted placement) on line l in row-major order; position[q] is where queen q sits there. */
typedef struct line_buckets {
    size_t *start;
    size_t *members;
    size_t *position;
} line_buckets;

static int compare_squares(const void *a, const void *b) {
    const queens_square *x = a, *y = b;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

static size_t line_of(queens_line kind, queens_square square, uint32_t n) {
    switch (kind) {
    case QUEENS_LINE_ROW: return square.row;
    case QUEENS_LINE_COLUMN: return square.col;
    case QUEENS_LINE_DIAGONAL: return (size_t)square.row + n - 1 - square.col;
    default: return (size_t)square.row + square.col;
    }
}

static void buckets_free(line_buckets *buckets) {
    free(buckets->start);
    free(buckets->members);
    free(buckets->position);
}

static bool buckets_build(line_buckets *buckets, queens_line kind, uint32_t n, const queens_square *queens, size_t k) {
    size_t lines = 2 * (size_t)n - 1;
    buckets->start = calloc(lines + 1, sizeof *buckets->start);
    buckets->members = malloc((k ? k : 1) * sizeof *buckets->members);
    buckets->position = malloc((k ? k : 1) * sizeof *buckets->position);
    if (buckets->start == NULL || buckets->members == NULL || buckets->position == NULL) return false;
    for (size_t q = 0; q < k; q++) buckets->start[line_of(kind, queens[q], n) + 1]++;
    for (size_t l = 0; l < lines; l++) buckets->start[l + 1] += buckets->start[l];
    size_t *fill = malloc((lines ? lines : 1) * sizeof *fill);
    if (fill == NULL) return false;
    for (size_t l = 0; l < lines; l++) fill[l] = buckets->start[l];
    for (size_t q = 0; q < k; q++) {
        size_t at = fill[line_of(kind, queens[q], n)]++;
        buckets->members[at] = q;
        buckets->position[q] = at;
    }
    free(fill);
    return true;
}

static uint64_t pairs_on_lines(const line_buckets *buckets, size_t lines) {
    uint64_t pairs = 0;
    for (size_t l = 0; l < lines; l++) {
        uint64_t c = buckets->start[l + 1] - buckets->start[l];
        pairs += c * (c - 1) / 2; /* c >= 1 whenever c - 1 matters: 0 * anything is 0 */
    }
    return pairs;
}

/* Lists the pairs (q, later) in order of `later`, merging the tails of q's four lines. */
static void list_partners(const line_buckets buckets[LINE_KINDS], const queens_square *queens, uint32_t n, size_t q,
                          queens_attack *attacks, size_t max_attacks, size_t *listed) {
    size_t next[LINE_KINDS], end[LINE_KINDS];
    for (int kind = 0; kind < LINE_KINDS; kind++) {
        next[kind] = buckets[kind].position[q] + 1;
        end[kind] = buckets[kind].start[line_of((queens_line)kind, queens[q], n) + 1];
    }
    while (*listed < max_attacks) {
        int best = -1;
        for (int kind = 0; kind < LINE_KINDS; kind++) {
            if (next[kind] < end[kind] &&
                (best < 0 || buckets[kind].members[next[kind]] < buckets[best].members[next[best]]))
                best = kind;
        }
        if (best < 0) return;
        size_t partner = buckets[best].members[next[best]++];
        attacks[(*listed)++] = (queens_attack){queens[q], queens[partner], (queens_line)best};
    }
}

bool queens_sort_distinct(queens_square *queens, size_t k, queens_square *repeated) {
    qsort(queens, k, sizeof *queens, compare_squares);
    for (size_t q = 1; q < k; q++) {
        if (compare_squares(&queens[q - 1], &queens[q]) == 0) {
            *repeated = queens[q];
            return false;
        }
    }
    return true;
}

core_status queens_find_attacks(uint32_t n, const queens_square *queens, size_t k, queens_attack *attacks,
                                size_t max_attacks, size_t *listed, uint64_t *attacking_pairs) {
    line_buckets buckets[LINE_KINDS] = {{0}};
    core_status status = CORE_OK;
    *listed = 0;
    *attacking_pairs = 0;
    for (int kind = 0; kind < LINE_KINDS; kind++) {
        if (!buckets_build(&buckets[kind], (queens_line)kind, n, queens, k)) {
            status = CORE_NO_MEMORY;
            goto out;
        }
        *attacking_pairs += pairs_on_lines(&buckets[kind], 2 * (size_t)n - 1);
    }
    for (size_t q = 0; q < k && *listed < max_attacks; q++)
        list_partners(buckets, queens, n, q, attacks, max_attacks, listed);
out:
    for (int kind = 0; kind < LINE_KINDS; kind++) buckets_free(&buckets[kind]);
    return status;
}
