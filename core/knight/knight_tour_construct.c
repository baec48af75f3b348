/* Closed tours on every board Schwenk's theorem allows, in linear time, by divide and conquer, and
 * open tours on boards with both sides odd.
 *
 * Boards with both sides >= 5 (one of them even, say the columns) are cut into blocks of 5..10 rows
 * by 6, 8 or 10 columns. Each block gets a closed tour from the small-board search (cached: there are
 * 54 kinds). Neighbouring tours are merged by an edge swap: remove one edge from each cycle and join
 * the four ends with two knight moves, which always leaves a single cycle. The swap between a block
 * and its right neighbour uses the block's top-right corner edge (a corner has only two moves, so
 * every closed tour uses both) and the edge (1,1)-(3,0) of the neighbour, which its tour is searched
 * to contain; blocks of the first block column are merged downwards the same way, transposed. The
 * merges follow a spanning tree of the blocks, so the result is one closed tour.
 *
 * Boards 3 x n (n even, >= 10) start from a closed tour of 3 x 10 or 3 x 12 and grow by 3 x 4 pieces:
 * the cycle's edge at the top-right corner is replaced by a Hamiltonian path of the new piece.
 *
 * Open tours on boards with both sides odd use the same blocks, cut so that a single block has two odd
 * sides and holds the start: that block gets a searched open path from the start containing the edges
 * its merges use, and merging cycles into a path by the same swaps leaves one path.
 *
 * Also here: the kt_builder that all constructions assemble their tours in, and the kt_widths that
 * the strip constructions cut their lengths into pieces with. */
#include <pthread.h>
#include <stdlib.h>

#include "core/knight/knight_tour_internal.h"

uint32_t kt_builder_at(const kt_builder *b, int r, int c) {
    return b->transposed ? (uint32_t)c * (uint32_t)b->real_cols + (uint32_t)r
                         : (uint32_t)r * (uint32_t)b->real_cols + (uint32_t)c;
}

void kt_builder_locate(const kt_builder *b, uint32_t square, int *r, int *c) {
    int real_r = (int)(square / (uint32_t)b->real_cols), real_c = (int)(square % (uint32_t)b->real_cols);
    *r = b->transposed ? real_c : real_r;
    *c = b->transposed ? real_r : real_c;
}

void kt_builder_link(kt_builder *b, uint32_t x, uint32_t y) {
    b->link[x][b->link[x][0] == KT_NONE_SQUARE ? 0 : 1] = y;
    b->link[y][b->link[y][0] == KT_NONE_SQUARE ? 0 : 1] = x;
}

void kt_builder_unlink(kt_builder *b, uint32_t x, uint32_t y) {
    b->link[x][b->link[x][0] == y ? 0 : 1] = KT_NONE_SQUARE;
    b->link[y][b->link[y][0] == x ? 0 : 1] = KT_NONE_SQUARE;
}

bool kt_builder_init(kt_builder *b, int rows, int cols, bool transposed) {
    *b = (kt_builder){.rows = transposed ? cols : rows,
                      .cols = transposed ? rows : cols,
                      .real_cols = cols,
                      .transposed = transposed};
    uint32_t n = (uint32_t)rows * (uint32_t)cols;
    b->link = malloc(sizeof *b->link * n);
    if (b->link == NULL) return false;
    for (uint32_t v = 0; v < n; v++) b->link[v][0] = b->link[v][1] = KT_NONE_SQUARE;
    return true;
}

void kt_builder_finish(kt_builder *b, uint32_t start, uint32_t *path) {
    uint32_t n = (uint32_t)b->rows * (uint32_t)b->cols, previous = KT_NONE_SQUARE, current = start;
    for (uint32_t i = 0; i < n; i++) {
        path[i] = current;
        uint32_t next = b->link[current][0] != previous ? b->link[current][0] : b->link[current][1];
        previous = current;
        current = next;
    }
    free(b->link);
    b->link = NULL;
}

uint32_t kt_builder_piece_square(const kt_builder *b, int r0, int c0, int w, uint32_t v, bool mirrored) {
    int c = (int)(v % (uint32_t)w);
    return kt_builder_at(b, r0 + (int)(v / (uint32_t)w), c0 + (mirrored ? w - 1 - c : c));
}

void kt_builder_place_path(kt_builder *b, int r0, int c0, int h, int w, const uint32_t *p, bool cycle, bool mirrored) {
    int n = h * w;
    for (int i = 0; i + 1 < n + (cycle ? 1 : 0); i++)
        kt_builder_link(b, kt_builder_piece_square(b, r0, c0, w, p[i], mirrored),
                        kt_builder_piece_square(b, r0, c0, w, p[(i + 1) % n], mirrored));
}

void kt_widths_init(kt_widths *w, const bool *available, int max_width) {
    *w = (kt_widths){.split = {-1}}; /* the empty split */
    for (int width = 1; width <= max_width; width++)
        if (available[width]) w->widest = width;
    for (int length = 1; length <= KT_SPLIT_TABLE; length++)
        for (int width = 1; width <= max_width && width <= length && w->split[length] == 0; width++)
            if (available[width] && w->split[length - width] != 0) w->split[length] = width;
}

int kt_widths_next(const kt_widths *w, int64_t length) {
    return length > KT_SPLIT_TABLE ? w->widest : w->split[length];
}

bool kt_widths_cover(const kt_widths *w, int64_t length) {
    if (length > KT_SPLIT_TABLE) {
        if (w->widest == 0) return false;
        length -= w->widest * ((length - KT_SPLIT_TABLE + w->widest - 1) / w->widest);
    }
    return w->split[length] != 0;
}

static void relink(kt_builder *b, uint32_t x, uint32_t old, uint32_t new) {
    b->link[x][b->link[x][0] == old ? 0 : 1] = new;
}

/* Replace the cycle edges x1-x2 and y1-y2 by x1-y1 and x2-y2. */
static void swap_edges(kt_builder *b, uint32_t x1, uint32_t x2, uint32_t y1, uint32_t y2) {
    relink(b, x1, x2, y1);
    relink(b, x2, x1, y2);
    relink(b, y1, y2, x1);
    relink(b, y2, y1, x2);
}

/* Cached small searched pieces: a Hamiltonian path on h x w from `from` to `to` (local squares). */
enum { BLOCK_MAX = 12, PIECES = BLOCK_MAX + 1 };
typedef enum piece_kind { CYCLE_PLAIN, CYCLE_LEFT_EDGE, CYCLE_TOP_EDGE, PATH_THREE_ROWS, PIECE_KINDS } piece_kind;

static pthread_mutex_t piece_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t *pieces[PIECES][PIECES][PIECE_KINDS];

static const uint32_t *piece(int h, int w, piece_kind kind) {
    pthread_mutex_lock(&piece_lock);
    uint32_t *found = pieces[h][w][kind];
    if (found == NULL) {
        kt_search_spec spec = {.rows = h, .cols = w, .ordered = true};
        const uint32_t W = (uint32_t)w;
        switch (kind) {
        case CYCLE_PLAIN: spec.start = 0, spec.end = W + 2; break;         /* (0,0) .. (1,2) */
        case CYCLE_LEFT_EDGE: spec.start = W + 1, spec.end = 3 * W; break; /* (1,1) .. (3,0) */
        case CYCLE_TOP_EDGE: spec.start = W + 1, spec.end = 3; break;      /* (1,1) .. (0,3) */
        case PATH_THREE_ROWS: spec.start = 2 * W, spec.end = W; break;     /* (2,0) .. (1,0) */
        case PIECE_KINDS: break;
        }
        found = malloc(sizeof *found * (size_t)(h * w));
        deadline none = deadline_none();
        kt_search_result result = KT_SEARCH_NONE;
        if (found != NULL && (kt_search_path(&spec, &none, found, &result) != CORE_OK || result != KT_SEARCH_FOUND)) {
            free(found); /* no piece: memory ran out (the sizes used all have one; checked by the tests) */
            found = NULL;
        }
        pieces[h][w][kind] = found;
    }
    pthread_mutex_unlock(&piece_lock);
    return found;
}

/* Lays a cached piece at virtual offset (r0, c0); cycles are closed, paths left open. */
static bool place(kt_builder *b, int r0, int c0, int h, int w, piece_kind kind) {
    const uint32_t *p = piece(h, w, kind);
    if (p != NULL) kt_builder_place_path(b, r0, c0, h, w, p, kind != PATH_THREE_ROWS, false);
    return p != NULL;
}

/* How a side is cut into parts: parts of 6 and a last one of 6..10 (or 5..10 when no part is odd),
 * except for at most one odd part of `odd_size` squares at `odd_at` (-1: none) holding the start of
 * an open tour. Even stretches are >= 6 (or empty), so they always cut into parts of 6, 8 or 10. */
typedef struct side_split {
    int length, odd_at, odd_size;
} side_split;

static int next_part(int remaining) { return remaining > 10 ? 6 : remaining; }

static int part_at(side_split s, int offset) {
    if (offset == s.odd_at) return s.odd_size;
    return next_part(s.odd_at > offset ? s.odd_at - offset : s.length - offset);
}

/* Lays the blocks and merges them along a spanning tree: each block with the one on its left, and
 * the blocks of the first block column with the one above. The odd block, if any, gets `odd_path`
 * (an open path searched to contain the edges those merges use) instead of a closed tour. */
static bool build_blocks(kt_builder *b, side_split rows, side_split cols, const uint32_t *odd_path) {
    for (int top = 0, h; top < b->rows; top += h) {
        h = part_at(rows, top);
        for (int left = 0, w; left < b->cols; left += w) {
            w = part_at(cols, left);
            if (top == rows.odd_at && left == cols.odd_at) {
                kt_builder_place_path(b, top, left, h, w, odd_path, false, false);
            } else {
                piece_kind kind = left > 0 ? CYCLE_LEFT_EDGE : top > 0 ? CYCLE_TOP_EDGE : CYCLE_PLAIN;
                if (!place(b, top, left, h, w, kind)) return false;
            }
            if (left > 0) /* merge with the block on the left (its top-right corner edge) */
                swap_edges(b, kt_builder_at(b, top, left - 1), kt_builder_at(b, top + 2, left - 2),
                           kt_builder_at(b, top + 1, left + 1), kt_builder_at(b, top + 3, left));
            else if (top > 0) /* merge with the block above (its bottom-left corner edge) */
                swap_edges(b, kt_builder_at(b, top - 1, 0), kt_builder_at(b, top - 2, 2), kt_builder_at(b, top + 1, 1),
                           kt_builder_at(b, top, 3));
        }
    }
    return true;
}

static bool build_three_rows(kt_builder *b) {
    int base = b->cols % 4 == 2 ? 10 : 12;
    if (!place(b, 0, 0, 3, base, CYCLE_PLAIN)) return false;
    for (int c = base; c < b->cols; c += 4) {
        uint32_t a1 = kt_builder_at(b, 0, c - 1), a2 = kt_builder_at(b, 2, c - 2);
        kt_builder_unlink(b, a1, a2);
        if (!place(b, 0, c, 3, 4, PATH_THREE_ROWS)) return false;
        kt_builder_link(b, a1, kt_builder_at(b, 2, c));
        kt_builder_link(b, a2, kt_builder_at(b, 1, c));
    }
    return true;
}

core_status kt_construct_closed(int rows, int cols, uint32_t start, uint32_t *path) {
    bool three = rows == 3 || cols == 3;
    kt_builder b;
    if (!kt_builder_init(&b, rows, cols, three ? cols == 3 : cols % 2 == 1)) return CORE_NO_MEMORY;
    side_split row_split = {b.rows, -1, 0}, col_split = {b.cols, -1, 0};
    if (!(three ? build_three_rows(&b) : build_blocks(&b, row_split, col_split, NULL))) {
        free(b.link);
        return CORE_NO_MEMORY;
    }
    kt_builder_finish(&b, start, path);
    return CORE_OK;
}

/* The ways to cut an odd side so that its one odd part (5..11 squares) holds `position`; returns how
 * many were written (at most `max`). */
static int odd_splits(int length, int position, side_split *out, int max) {
    int count = 0;
    for (int size = 5; size <= 11 && count < max; size += 2) {
        for (int at = position - size + 1 < 0 ? 0 : position - size + 1; at <= position && count < max; at++) {
            int rest = length - at - size;
            if (rest < 0 || at % 2 != 0 || (at > 0 && at < 6) || (rest > 0 && rest < 6)) continue;
            out[count++] = (side_split){length, at, size};
        }
    }
    return count;
}

enum { ODD_SPLITS = 4, ODD_BLOCK_NODES = 200000 };

core_status kt_construct_open_odd(int rows, int cols, uint32_t start, const deadline *limit, uint32_t *path,
                                  bool *built) {
    *built = false;
    int sr = (int)(start / (uint32_t)cols), sc = (int)(start % (uint32_t)cols);
    side_split row_options[ODD_SPLITS], col_options[ODD_SPLITS];
    int row_count = odd_splits(rows, sr, row_options, ODD_SPLITS);
    int col_count = odd_splits(cols, sc, col_options, ODD_SPLITS);
    uint32_t block[11 * 11];
    for (int i = 0; i < row_count * col_count; i++) {
        side_split rs = row_options[i / col_count], cs = col_options[i % col_count];
        uint32_t h = (uint32_t)rs.odd_size, w = (uint32_t)cs.odd_size;
        kt_search_spec spec = {.rows = (int)h,
                               .cols = (int)w,
                               .start = (uint32_t)(sr - rs.odd_at) * w + (uint32_t)(sc - cs.odd_at),
                               .end = KT_NONE_SQUARE,
                               .ordered = true,
                               .node_limit = ODD_BLOCK_NODES};
        /* the edges the merges will swap (see build_blocks) */
        if (cs.odd_at > 0)
            spec.required[spec.required_count][0] = w + 1, spec.required[spec.required_count++][1] = 3 * w;
        else if (rs.odd_at > 0)
            spec.required[spec.required_count][0] = w + 1, spec.required[spec.required_count++][1] = 3;
        if (cs.odd_at + cs.odd_size < cols)
            spec.required[spec.required_count][0] = w - 1, spec.required[spec.required_count++][1] = 2 * w + w - 2;
        if (cs.odd_at == 0 && rs.odd_at + rs.odd_size < rows)
            spec.required[spec.required_count][0] = (h - 1) * w,
            spec.required[spec.required_count++][1] = (h - 2) * w + 2;
        kt_search_result result;
        core_status status = kt_search_path(&spec, limit, block, &result);
        if (status != CORE_OK) return status;
        if (result != KT_SEARCH_FOUND) continue;
        kt_builder b;
        if (!kt_builder_init(&b, rows, cols, false)) return CORE_NO_MEMORY;
        if (!build_blocks(&b, rs, cs, block)) {
            free(b.link);
            return CORE_NO_MEMORY;
        }
        kt_builder_finish(&b, start, path);
        *built = true;
        return CORE_OK;
    }
    return CORE_OK;
}
