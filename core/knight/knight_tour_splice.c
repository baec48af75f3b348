/* The frame shared by the constructions for long boards with a short side of 3 or 4 (the strip and
 * the 4-row constructions, see their files for why their pieces splice in as they do): the board is
 * seen as a strip of `rows` rows, possibly transposed; a window of a few columns around the start gets
 * a searched path from the start containing the splice edges at its borders (where the board goes on),
 * and cached pieces are spliced in on both sides until the board is covered. Which windows are tried
 * depends only on the start and on which lengths the pieces cover, so the first window that works is
 * the same on every board where the same case occurs. */
#include <stdlib.h>

#include "core/knight/knight_tour_internal.h"

enum { WINDOW_MAX = 16 };

/* Searches and caches the pieces on first use. Out of memory, nothing is kept (a piece that could
 * not be searched is not "no piece"): the next request searches them all again. */
static core_status ensure_pieces(kt_splicing *s) {
    core_status status = CORE_OK;
    pthread_mutex_lock(&s->lock);
    if (s->ready) goto out;
    bool available[KT_SPLICE_PIECE_MAX + 1] = {false};
    for (int w = s->piece_min; w <= s->piece_max && status == CORE_OK; w++)
        status = s->search_piece(w, &s->piece[w], &available[w]);
    if (status != CORE_OK) {
        for (int w = s->piece_min; w <= s->piece_max; w++) {
            if (available[w]) free(s->piece[w].path);
            s->piece[w] = (kt_piece){0};
        }
        goto out;
    }
    kt_widths_init(&s->widths, available, s->piece_max);
    s->ready = true;
out:
    pthread_mutex_unlock(&s->lock);
    return status;
}

/* The first window around virtual (sr, sc) on a board of n columns that has a path: into `window`,
 * at columns [*left, *left + *width). On CORE_OK `*found` is false when none worked. */
static core_status find_window(const kt_splicing *s, int n, int sr, int sc, const deadline *limit, uint32_t *window,
                               int *left, int *width, bool *found) {
    *found = false;
    for (*width = s->window_min; *width <= WINDOW_MAX && *width <= n; (*width)++) {
        for (*left = sc - *width + 1 < 0 ? 0 : sc - *width + 1; *left <= sc && *left + *width <= n; (*left)++) {
            int right_length = n - *left - *width;
            if (!kt_widths_cover(&s->widths, *left) || !kt_widths_cover(&s->widths, right_length)) continue;
            kt_search_spec spec = {.rows = s->rows,
                                   .cols = *width,
                                   .start = (uint32_t)(sr * *width + sc - *left),
                                   .end = KT_NONE_SQUARE,
                                   .ordered = true,
                                   .node_limit = s->window_nodes};
            if (!s->require_edges(&spec, *width, *left > 0, right_length > 0)) continue;
            kt_search_result result;
            core_status status = kt_search_path(&spec, limit, window, &result);
            if (status != CORE_OK) return status;
            if (result == KT_SEARCH_FOUND) {
                *found = true;
                return CORE_OK;
            }
        }
    }
    return CORE_OK;
}

core_status kt_construct_spliced(kt_splicing *s, int rows, int cols, uint32_t start, const deadline *limit,
                                 uint32_t *path, bool *built) {
    *built = false;
    uint32_t *window = malloc(sizeof *window * (size_t)(s->rows * WINDOW_MAX));
    kt_builder b;
    core_status status = CORE_NO_MEMORY;
    if (!kt_builder_init(&b, rows, cols, rows != s->rows) || window == NULL) goto out;
    int n = b.cols, sr, sc, left, width;
    kt_builder_locate(&b, start, &sr, &sc);
    status = ensure_pieces(s);
    if (status != CORE_OK) goto out;
    status = find_window(s, n, sr, sc, limit, window, &left, &width, built);
    if (status != CORE_OK || !*built) goto out;
    kt_builder_place_path(&b, 0, left, s->rows, width, window, false, false);
    for (int border = left + width, w; border < n; border += w) {
        w = kt_widths_next(&s->widths, n - border);
        s->insert_piece(&b, &s->piece[w], w, border, false);
    }
    for (int border = left, w; border > 0; border -= w) {
        w = kt_widths_next(&s->widths, border);
        s->insert_piece(&b, &s->piece[w], w, border, true);
    }
    kt_builder_finish(&b, start, path);
out:
    if (!*built) free(b.link);
    free(window);
    return status;
}
