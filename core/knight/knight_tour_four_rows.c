/* Open tours on boards with a side of 4 (4 x n, n >= 5), in time linear in the board, from every
 * square of an outer line (the inner ones have none: knight_tour_impossibility).
 *
 * Why the 3-row splicing does not carry over as it is: the outer lines only reach the inner ones, so an
 * open tour alternates outer, inner, outer ... but for one inner-to-inner step, and since a knight
 * changes colour at each move, the outer squares before that step all have one colour and those after
 * it the other. A stretch of a tour that enters and leaves a block by one edge would have to cover the
 * block's outer squares of both colours with one colour. So a block is spliced into two edges at once,
 * one in each half of the tour (Watkins, "Across the Board", ch. 5, builds 4 x n tours from end pieces
 * and repeatable middle blocks of a few columns in the same spirit; the blocks here are our own,
 * found by the search below and checked by the tests):
 *   - the splice edges at a right border B are E1 = (2,B-1)-(0,B-2) and E2 = (1,B-1)-(3,B-2) (inner
 *     square first; their outer squares have different colours), mirrored at a left border;
 *   - a piece of k columns right of B is two paths, P from a knight's move x1 of E1's inner square to
 *     one y1 of its outer square, Q likewise from x2 to y2 for E2, covering the piece between them and
 *     containing E1 and E2 again at its own right border; E1 and E2 are replaced by P and Q, which
 *     leaves one open tour whatever the order in which the tour walks them. P and Q are searched as
 *     one path x1 ..P.. y1 => y2 ..Q reversed.. x2 whose jump y1 => y2 (both inner squares, no knight's
 *     move between them: it stands for the rest of the tour) is then cut. P and Q alternate outer and
 *     inner, so that path has one inner-to-inner step, the jump, like any 4-row path: the search's
 *     pruning by that rule stays sound. (Joining P and Q by a real knight's move is impossible: two
 *     squares a move from squares left of B both lie in columns B and B+1, and no knight's move joins
 *     two inner squares of the same two columns.) Splice edges within the last two columns with
 *     outer squares of one colour admit no piece at all; this pair admits pieces of every width from 3;
 *   - a window of a few columns around the start gets a searched tour from the start containing the
 *     splice edges at its borders (where the board goes on), and pieces are spliced in on both sides,
 *     mirrored on the left.
 * Pieces are searched once per width and cached; the window and the splicing are the frame of
 * knight_tour_splice.c. Why this answers every n >= 5, not only the tested ones: the windows tried
 * depend only on the start's line, its distance to each end capped at WINDOW_MAX (knight_tour_splice.c)
 * + 2 columns, and whether what is left on each side is 0, 1, 2 or more columns (pieces of 3, 4 and 5
 * cover every length from 3), so every case already occurs on some 4 x n with n <= 37, and the unit
 * tests ask every start of every 4 x n up to 64. */
#include <stdlib.h>

#include "core/knight/knight_tour_internal.h"

enum {
    H = 4,
    PIECE_MIN = 3,
    PIECE_MAX = 8,
    PIECE_NODES = 200000,
    WINDOW_NODES = 200000,
};

/* The two splice edges E1, E2, each as its inner square then its outer square, each square as (row,
 * column offset from the right border B: -2 or -1). */
static const int splice_edges[2][2][2] = {{{2, -1}, {0, -2}}, {{1, -1}, {3, -2}}};

static uint32_t sq(int w, int r, int c) { return (uint32_t)(r * w + c); }

/* The squares of a w-column piece (left border at column 0) a knight's move from splice square
 * `end` (0 or 1) of edge `edge`; returns how many. */
static int entries(int w, int edge, int end, uint32_t out[8]) {
    int r = splice_edges[edge][end][0], c = splice_edges[edge][end][1], count = 0;
    for (int m = 0; m < 8; m++) {
        int nr = r + kt_move_dr[m], nc = c + kt_move_dc[m];
        if (nr >= 0 && nr < H && nc >= 0 && nc < w) out[count++] = sq(w, nr, nc);
    }
    return count;
}

/* The splice edges at the right border of a w-column piece or window, as required edges. */
static void require_right_edges(kt_search_spec *spec, int w) {
    for (int e = 0; e < 2; e++) {
        for (int end = 0; end < 2; end++)
            spec->required[spec->required_count][end] = sq(w, splice_edges[e][end][0], w + splice_edges[e][end][1]);
        spec->required_count++;
    }
}

/* Their mirror images at its left border. */
static void require_left_edges(kt_search_spec *spec, int w) {
    for (int e = 0; e < 2; e++) {
        for (int end = 0; end < 2; end++)
            spec->required[spec->required_count][end] = sq(w, splice_edges[e][end][0], -1 - splice_edges[e][end][1]);
        spec->required_count++;
    }
}

static core_status search_piece(int w, kt_piece *out, bool *found) {
    *found = false;
    uint32_t x1[8], y1[8], x2[8], y2[8];
    int nx1 = entries(w, 0, 0, x1), ny1 = entries(w, 0, 1, y1), nx2 = entries(w, 1, 0, x2), ny2 = entries(w, 1, 1, y2);
    uint32_t *path = malloc(sizeof *path * (size_t)(H * w));
    if (path == NULL) return CORE_NO_MEMORY;
    deadline none = deadline_none();
    core_status status = CORE_OK;
    for (int a = 0; a < nx1; a++)
        for (int b = 0; b < ny1; b++)
            for (int c = 0; c < ny2; c++)
                for (int d = 0; d < nx2; d++) {
                    kt_search_spec spec = {.rows = H,
                                           .cols = w,
                                           .start = x1[a],
                                           .end = x2[d],
                                           .ordered = true,
                                           .node_limit = PIECE_NODES,
                                           .jump = true};
                    spec.required[0][0] = y1[b], spec.required[0][1] = y2[c], spec.required_count = 1;
                    require_right_edges(&spec, w);
                    kt_search_result result;
                    status = kt_search_path(&spec, &none, path, &result);
                    if (status != CORE_OK) goto out;
                    if (result != KT_SEARCH_FOUND) continue;
                    int at = 0;
                    while (path[at] != y1[b]) at++;
                    *out = (kt_piece){path, at};
                    *found = true;
                    return CORE_OK;
                }
out:
    free(path);
    return status;
}

/* The splice edges at the window's borders where the board goes on; a window narrower than those
 * edges need is too narrow. */
static bool require_edges(kt_search_spec *spec, int width, bool left, bool right) {
    if (width < 2 * (left + right)) return false;
    if (left) require_left_edges(spec, width);
    if (right) require_right_edges(spec, width);
    return true;
}

/* Splices the piece of width w into the splice edges at `border`: growing rightwards it lies at
 * [border, border + w); leftwards, mirrored, at [border - w, border). */
static void insert_piece(kt_builder *b, const kt_piece *piece, int w, int border, bool leftwards) {
    int c0 = leftwards ? border - w : border;
    uint32_t ends[2][2];
    for (int e = 0; e < 2; e++)
        for (int end = 0; end < 2; end++) {
            int offset = splice_edges[e][end][1];
            ends[e][end] = kt_builder_at(b, splice_edges[e][end][0], leftwards ? border - 1 - offset : border + offset);
        }
    kt_builder_unlink(b, ends[0][0], ends[0][1]);
    kt_builder_unlink(b, ends[1][0], ends[1][1]);
    kt_builder_place_path(b, 0, c0, H, w, piece->path, false, leftwards);
    uint32_t x1 = kt_builder_piece_square(b, 0, c0, w, piece->path[0], leftwards);
    uint32_t y1 = kt_builder_piece_square(b, 0, c0, w, piece->path[piece->jump_at], leftwards);
    uint32_t y2 = kt_builder_piece_square(b, 0, c0, w, piece->path[piece->jump_at + 1], leftwards);
    uint32_t x2 = kt_builder_piece_square(b, 0, c0, w, piece->path[H * w - 1], leftwards);
    kt_builder_unlink(b, y1, y2);
    kt_builder_link(b, ends[0][0], x1);
    kt_builder_link(b, ends[0][1], y1);
    kt_builder_link(b, ends[1][1], y2);
    kt_builder_link(b, ends[1][0], x2);
}

kt_splicing kt_four_rows_splicing = {
    .rows = H,
    .piece_min = PIECE_MIN,
    .piece_max = PIECE_MAX,
    .window_min = 1,
    .window_nodes = WINDOW_NODES,
    .search_piece = search_piece,
    .require_edges = require_edges,
    .insert_piece = insert_piece,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};
