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
 * Pieces are searched once per width and cached. */
#include <pthread.h>
#include <stdlib.h>

#include "core/knight/knight_tour_internal.h"

enum {
    PIECE_MIN = 4,
    PIECE_MAX = 10,
    WINDOW_MAX = 16,
    PIECE_NODES = 2000000,
    WINDOW_NODES = 300000,
};

typedef struct strip_pieces {
    bool ready;
    uint32_t *path[PIECE_MAX + 1]; /* NULL when no piece of that width exists */
    kt_widths widths;
} strip_pieces;

enum { H = 3 };
static pthread_mutex_t strip_lock = PTHREAD_MUTEX_INITIALIZER;
static strip_pieces strip;

static uint32_t sq(int w, int r, int c) { return (uint32_t)(r * w + c); }

/* A path through a 3 x w piece placed left of the border S: from a knight's move of (0,S) to the only
 * square a knight's move from (2,S+1), containing the edge (0,0)-(2,1) for the next piece. */
static uint32_t *search_piece(int w) {
    uint32_t *path = malloc(sizeof *path * (size_t)(H * w));
    if (path == NULL) return NULL;
    deadline none = deadline_none();
    kt_search_spec spec = {.rows = H, .cols = w, .end = sq(w, 1, w - 1), .ordered = true, .node_limit = PIECE_NODES};
    const uint32_t firsts[2] = {sq(w, 1, w - 2), sq(w, 2, w - 1)};
    spec.required[0][0] = sq(w, 0, 0), spec.required[0][1] = sq(w, 2, 1), spec.required_count = 1;
    for (int i = 0; i < 2; i++) {
        spec.start = firsts[i];
        if (kt_search_path(&spec, &none, path) == KT_SEARCH_FOUND) return path;
    }
    free(path);
    return NULL;
}

static const strip_pieces *pieces(void) {
    pthread_mutex_lock(&strip_lock);
    strip_pieces *p = &strip;
    if (!p->ready) {
        bool available[PIECE_MAX + 1] = {false};
        for (int w = PIECE_MIN; w <= PIECE_MAX; w++) {
            p->path[w] = search_piece(w);
            available[w] = p->path[w] != NULL;
        }
        kt_widths_init(&p->widths, available, PIECE_MAX);
        p->ready = true;
    }
    pthread_mutex_unlock(&strip_lock);
    return p;
}

/* Replaces the edge a1-a2 by the path of a piece of width w at virtual column c0. */
static void insert_piece(kt_builder *b, const strip_pieces *p, int w, int c0, bool mirrored, uint32_t a1, uint32_t a2) {
    const uint32_t *piece = p->path[w];
    kt_builder_unlink(b, a1, a2);
    kt_builder_place_path(b, 0, c0, H, w, piece, false, mirrored);
    kt_builder_link(b, a1, kt_builder_piece_square(b, 0, c0, w, piece[0], mirrored));
    kt_builder_link(b, a2, kt_builder_piece_square(b, 0, c0, w, piece[H * w - 1], mirrored));
}

kt_search_status kt_construct_strip(int rows, int cols, uint32_t start, const deadline *limit, uint32_t *path) {
    kt_builder b;
    if (!kt_builder_init(&b, rows, cols, cols < rows)) return KT_SEARCH_NO_MEMORY;
    int n = b.cols;
    int sr, sc;
    kt_builder_locate(&b, start, &sr, &sc);
    const strip_pieces *p = pieces();
    uint32_t *window = malloc(sizeof *window * (size_t)(H * WINDOW_MAX));
    kt_search_status status = window == NULL ? KT_SEARCH_NO_MEMORY : KT_SEARCH_NODE_LIMIT;
    int left = 0, width = 0;
    for (width = PIECE_MIN; width <= WINDOW_MAX && width <= n && status == KT_SEARCH_NODE_LIMIT; width++) {
        for (left = sc - width + 1 < 0 ? 0 : sc - width + 1; left <= sc && left + width <= n; left++) {
            int right_length = n - left - width;
            if (!kt_widths_cover(&p->widths, left) || !kt_widths_cover(&p->widths, right_length)) continue;
            kt_search_spec spec = {.rows = H,
                                   .cols = width,
                                   .start = sq(width, sr, sc - left),
                                   .end = KT_NONE_SQUARE,
                                   .ordered = true,
                                   .node_limit = WINDOW_NODES};
            if (left > 0) {
                spec.required[spec.required_count][0] = sq(width, 0, 0);
                spec.required[spec.required_count++][1] = sq(width, 2, 1);
            }
            if (right_length > 0) {
                spec.required[spec.required_count][0] = sq(width, 0, width - 1);
                spec.required[spec.required_count++][1] = sq(width, 2, width - 2);
            }
            status = kt_search_path(&spec, limit, window);
            if (status == KT_SEARCH_FOUND || status == KT_SEARCH_DEADLINE) break;
            status = KT_SEARCH_NODE_LIMIT;
        }
        if (status != KT_SEARCH_NODE_LIMIT) break;
    }
    if (status == KT_SEARCH_FOUND) {
        kt_builder_place_path(&b, 0, left, H, width, window, false, false);
        for (int border = left + width, w; border < n; border += w) {
            w = kt_widths_next(&p->widths, n - border);
            insert_piece(&b, p, w, border, true, kt_builder_at(&b, 0, border - 1), kt_builder_at(&b, 2, border - 2));
        }
        for (int border = left, w; border > 0; border -= w) {
            w = kt_widths_next(&p->widths, border);
            insert_piece(&b, p, w, border - w, false, kt_builder_at(&b, 0, border), kt_builder_at(&b, 2, border + 1));
        }
        kt_builder_finish(&b, start, path);
    } else {
        free(b.link);
    }
    free(window);
    return status;
}
