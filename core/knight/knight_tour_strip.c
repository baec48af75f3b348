/* Open tours on long boards with a side of 3 (odd lengths, which have no closed tour to cut open, and on
 * which plain search and Warnsdorff both get lost). The board is seen as a strip of 3 rows:
 *   - a window of a few columns around the start gets a searched path from the start that contains the
 *     edge (0,0)-(2,1) of its first two columns and the mirror edge of its last two (when the window
 *     does not reach that end of the board);
 *   - pieces are inserted on the left: the edge (0,S)-(2,S+1) at the current left border S is
 *     replaced by a path through the piece, which itself contains the same edge one piece further left;
 *   - the same pieces, mirrored, are inserted on the right.
 * With 4 rows one edge is not enough (every tour alternates between the outer and the inner rows but
 * for one inner-to-inner step, so no stretch of it covers a block): knight_tour_four_rows.c splices
 * each piece into two edges at once.
 * Pieces are searched once per width and cached; the window and the splicing are the frame of
 * knight_tour_splice.c. */
#include <stdlib.h>

#include "core/knight/knight_tour_internal.h"

enum {
    H = 3,
    PIECE_MIN = 4,
    PIECE_MAX = 10,
    PIECE_NODES = 2000000,
    WINDOW_NODES = 300000,
};

static uint32_t sq(int w, int r, int c) { return (uint32_t)(r * w + c); }

/* A path through a 3 x w piece placed left of the border S: from a knight's move of (0,S) to the only
 * square a knight's move from (2,S+1), containing the edge (0,0)-(2,1) for the next piece. */
static core_status search_piece(int w, kt_piece *out, bool *found) {
    *found = false;
    uint32_t *path = malloc(sizeof *path * (size_t)(H * w));
    if (path == NULL) return CORE_NO_MEMORY;
    deadline none = deadline_none();
    kt_search_spec spec = {.rows = H, .cols = w, .end = sq(w, 1, w - 1), .ordered = true, .node_limit = PIECE_NODES};
    const uint32_t firsts[2] = {sq(w, 1, w - 2), sq(w, 2, w - 1)};
    spec.required[0][0] = sq(w, 0, 0), spec.required[0][1] = sq(w, 2, 1), spec.required_count = 1;
    core_status status = CORE_OK;
    for (int i = 0; i < 2 && status == CORE_OK && !*found; i++) {
        spec.start = firsts[i];
        kt_search_result result;
        status = kt_search_path(&spec, &none, path, &result);
        *found = status == CORE_OK && result == KT_SEARCH_FOUND;
    }
    if (*found) *out = (kt_piece){.path = path};
    else free(path);
    return status;
}

/* The edge (0,0)-(2,1) of the window's first two columns, and its mirror in its last two. */
static bool require_edges(kt_search_spec *spec, int width, bool left, bool right) {
    if (left) {
        spec->required[spec->required_count][0] = sq(width, 0, 0);
        spec->required[spec->required_count++][1] = sq(width, 2, 1);
    }
    if (right) {
        spec->required[spec->required_count][0] = sq(width, 0, width - 1);
        spec->required[spec->required_count++][1] = sq(width, 2, width - 2);
    }
    return true;
}

/* Replaces the edge at `border` by the path of the piece: mirrored right of the border, as it is left
 * of it. */
static void insert_piece(kt_builder *b, const kt_piece *piece, int w, int border, bool leftwards) {
    int c0 = leftwards ? border - w : border;
    uint32_t a1 = leftwards ? kt_builder_at(b, 0, border) : kt_builder_at(b, 0, border - 1);
    uint32_t a2 = leftwards ? kt_builder_at(b, 2, border + 1) : kt_builder_at(b, 2, border - 2);
    kt_builder_unlink(b, a1, a2);
    kt_builder_place_path(b, 0, c0, H, w, piece->path, false, !leftwards);
    kt_builder_link(b, a1, kt_builder_piece_square(b, 0, c0, w, piece->path[0], !leftwards));
    kt_builder_link(b, a2, kt_builder_piece_square(b, 0, c0, w, piece->path[H * w - 1], !leftwards));
}

kt_splicing kt_strip_splicing = {
    .rows = H,
    .piece_min = PIECE_MIN,
    .piece_max = PIECE_MAX,
    .window_min = PIECE_MIN,
    .window_nodes = WINDOW_NODES,
    .search_piece = search_piece,
    .require_edges = require_edges,
    .insert_piece = insert_piece,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};
