/* Shared pieces of the knight's tour modules: board geometry and the small-board path search that
 * the constructions and the "auto" strategy build on. Not part of the public interface. */
#ifndef PUZZLED_CORE_KNIGHT_TOUR_INTERNAL_H
#define PUZZLED_CORE_KNIGHT_TOUR_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"

#define KT_NONE_SQUARE UINT32_MAX
#define KT_MAX_REQUIRED 4

extern const int kt_move_dr[8];
extern const int kt_move_dc[8];

/* The squares a knight reaches from `square` on a rows x cols board (row-major indices); returns how
 * many (at most 8) were written to `out`. */
int kt_neighbours(int rows, int cols, uint32_t square, uint32_t out[8]);

bool kt_is_knight_move(int cols, uint32_t a, uint32_t b);

/* A Hamiltonian path search on a (small) board: from `start`, optionally ending on `end`, containing
 * every edge in `required` (the first one possibly a jump). `ordered` selects Warnsdorff move ordering
 * with dead-end pruning (an exhaustive search that is fast in practice); without it the moves are
 * tried in the fixed textbook order with no pruning at all. */
typedef struct kt_search_spec {
    int rows, cols;
    uint32_t start;
    uint32_t end; /* KT_NONE_SQUARE: anywhere */
    uint32_t required[KT_MAX_REQUIRED][2];
    int required_count;
    bool jump; /* required[0] is a jump: walked from [0] to [1], in that direction, though no knight's
                  move joins them (it stands for a stretch of the tour outside the board searched) */
    bool ordered;
    bool closed;         /* the last square must be a knight's move from the start */
    uint64_t node_limit; /* 0: no limit */
} kt_search_spec;

/* How a search that did not fail ended. */
typedef enum kt_search_result {
    KT_SEARCH_FOUND,      /* `path` holds rows*cols squares */
    KT_SEARCH_NONE,       /* the whole tree was searched */
    KT_SEARCH_NODE_LIMIT, /* gave up after node_limit moves */
} kt_search_result;

/* On CORE_OK `*result` says how the search ended. */
core_status kt_search_path(const kt_search_spec *spec, const deadline *limit, uint32_t *path, kt_search_result *result);

/* Warnsdorff's rule from `start`, ties broken by the larger distance from the centre (Roth), then by a
 * pseudo-random order drawn from `seed` (0: the fixed move order). When `closed`, the walk must end a
 * knight's move from `start`. On CORE_OK `*covered` says whether the walk covered the board (then
 * `path` holds it). */
core_status kt_warnsdorff_walk(int rows, int cols, uint32_t start, bool closed, uint64_t seed, uint32_t *path,
                               bool *covered);

/* A closed tour on any board that Schwenk's theorem allows, written to `path` starting at `start`.
 * Fails only when memory ran out. */
core_status kt_construct_closed(int rows, int cols, uint32_t start, uint32_t *path);

/* An open tour from `start` (of the corners' colour) on a board with both sides odd and >= 5: the
 * closed-tour blocks of kt_construct_closed around one odd block that holds the start and gets a
 * searched path instead. On CORE_OK `*built` is false when no cut of the board worked. */
core_status kt_construct_open_odd(int rows, int cols, uint32_t start, const deadline *limit, uint32_t *path,
                                  bool *built);

/* A tour under construction as the two tour neighbours of every square (KT_NONE_SQUARE at the ends of
 * an open path), possibly transposed so that constructions can assume one orientation: virtual
 * (r, c) is real (c, r) when `transposed`. */
typedef struct kt_builder {
    int rows, cols; /* virtual */
    int real_cols;
    bool transposed;
    uint32_t (*link)[2];
} kt_builder;

bool kt_builder_init(kt_builder *b, int rows, int cols, bool transposed);     /* real rows, cols */
uint32_t kt_builder_at(const kt_builder *b, int r, int c);                    /* virtual -> real square */
void kt_builder_locate(const kt_builder *b, uint32_t square, int *r, int *c); /* real square -> virtual */
void kt_builder_link(kt_builder *b, uint32_t x, uint32_t y);
void kt_builder_unlink(kt_builder *b, uint32_t x, uint32_t y);
/* Links consecutive squares of `p` (a path on an h x w piece, local row-major squares) laid at virtual
 * (r0, c0), left-right mirrored when `mirrored`; `cycle` also links the last square to the first. */
void kt_builder_place_path(kt_builder *b, int r0, int c0, int h, int w, const uint32_t *p, bool cycle, bool mirrored);
/* The virtual square of local square `v` of such a piece. */
uint32_t kt_builder_piece_square(const kt_builder *b, int r0, int c0, int w, uint32_t v, bool mirrored);
/* Writes the tour to `path` walking from `start` (an end of the path, or anywhere on a cycle) and
 * frees the links. */
void kt_builder_finish(kt_builder *b, uint32_t start, uint32_t *path);

/* How a strip construction covers a length with the piece widths it has: split[length] is a width
 * that starts a split (-1 for the empty length 0, 0 when there is none); lengths beyond the table
 * are cut by the widest piece first. */
#define KT_SPLIT_TABLE 64
typedef struct kt_widths {
    int split[KT_SPLIT_TABLE + 1];
    int widest; /* 0: no pieces */
} kt_widths;

/* available[w] for w in 1..max_width: whether a piece of width w exists. */
void kt_widths_init(kt_widths *w, const bool *available, int max_width);
/* The width of the next piece when covering `length` > 0, 0 when impossible. */
int kt_widths_next(const kt_widths *w, int64_t length);
/* Whether `length` >= 0 can be covered (in constant time). */
bool kt_widths_cover(const kt_widths *w, int64_t length);

/* The frame of the constructions for long boards with a short side of `rows` (3 or 4): a searched
 * window of a few columns around the start, then pieces (searched once per width and cached) spliced
 * in on both sides of it, mirrored on the left (knight_tour_splice.c). Each construction says how its
 * pieces are searched and spliced. */
#define KT_SPLICE_PIECE_MAX 10

typedef struct kt_piece {
    uint32_t *path; /* rows x width squares; NULL: no piece of that width */
    int jump_at;    /* pieces searched with a jump: path[jump_at] -> path[jump_at + 1] is it */
} kt_piece;

typedef struct kt_splicing {
    int rows;
    int piece_min, piece_max; /* piece_max <= KT_SPLICE_PIECE_MAX */
    int window_min;           /* the narrowest window tried */
    uint64_t window_nodes;    /* the node limit of one window's search */
    /* Searches the piece of width `width`; on CORE_OK `*found` says whether there is one (then in
     * `*out`). CORE_NO_MEMORY is not an answer: nothing is cached then, and the next request searches again. */
    core_status (*search_piece)(int width, kt_piece *out, bool *found);
    /* Adds the splice edges to a window's search: at its left border when `left`, at its right one when
     * `right`; false when the window is too narrow for them. */
    bool (*require_edges)(kt_search_spec *spec, int width, bool left, bool right);
    /* Splices `piece` of width `width` in at `border`: right of it, or mirrored left of it when `leftwards`. */
    void (*insert_piece)(kt_builder *b, const kt_piece *piece, int width, int border, bool leftwards);
    /* The pieces, searched on first use under the lock. */
    pthread_mutex_t lock;
    bool ready;
    kt_piece piece[KT_SPLICE_PIECE_MAX + 1];
    kt_widths widths;
} kt_splicing;

/* An open tour from `start` on a rows x cols board whose short side is splicing->rows. On CORE_OK
 * `*built` is false when no window worked. */
core_status kt_construct_spliced(kt_splicing *splicing, int rows, int cols, uint32_t start, const deadline *limit,
                                 uint32_t *path, bool *built);

/* The long boards with a side of 3 (knight_tour_strip.c) and 4 x n, n >= 5, from an outer-line start
 * (knight_tour_four_rows.c). */
extern kt_splicing kt_strip_splicing;
extern kt_splicing kt_four_rows_splicing;

#endif
