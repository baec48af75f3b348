/* Depth-first search for a knight's path that visits every square: the exhaustive search (Warnsdorff
 * move ordering, dead-end pruning, required edges, a fixed end and a jump for the constructions) and,
 * with `ordered` off, the plain textbook backtracking. Iterative, so large boards cannot overflow the
 * stack. */
#include <stdlib.h>

#include "core/knight/knight_tour_internal.h"
#include "core/common/progress.h"

const int kt_move_dr[8] = {-2, -1, 1, 2, 2, 1, -1, -2};
const int kt_move_dc[8] = {1, 2, 2, 1, -1, -2, -2, -1};

int kt_neighbours(int rows, int cols, uint32_t square, uint32_t out[8]) {
    int r = (int)(square / (uint32_t)cols), c = (int)(square % (uint32_t)cols), count = 0;
    for (int m = 0; m < 8; m++) {
        int nr = r + kt_move_dr[m], nc = c + kt_move_dc[m];
        if (nr >= 0 && nr < rows && nc >= 0 && nc < cols) out[count++] = (uint32_t)(nr * cols + nc);
    }
    return count;
}

bool kt_is_knight_move(int cols, uint32_t a, uint32_t b) {
    int dr = abs((int)(a / (uint32_t)cols) - (int)(b / (uint32_t)cols));
    int dc = abs((int)(a % (uint32_t)cols) - (int)(b % (uint32_t)cols));
    return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
}

enum {
    POLL_EVERY = 4096,
    JUMP_MOVE = 8, /* the move index of the spec's jump, after the eight knight's moves */
    MOVES = 9,
};

typedef struct search {
    const kt_search_spec *spec;
    uint32_t n;
    uint8_t *visited;
    uint8_t *degree;              /* unvisited neighbours of each square */
    uint8_t (*candidates)[MOVES]; /* per depth: the moves (indices into kt_move_*, or JUMP_MOVE) to try, in order */
    uint8_t *candidate_count, *candidate_next;
    uint32_t low_degree;  /* unvisited squares with degree <= 1 */
    uint32_t zero_degree; /* unvisited squares with degree 0 */
    uint8_t *inner_steps; /* per depth, see inner_pair_repeated */
} search;

/* The squares joined to `v` by a knight's move or by the spec's jump; returns how many. */
static int neighbours(const kt_search_spec *spec, uint32_t v, uint32_t out[MOVES]) {
    int k = kt_neighbours(spec->rows, spec->cols, v, out);
    if (spec->jump && v == spec->required[0][0]) out[k++] = spec->required[0][1];
    else if (spec->jump && v == spec->required[0][1]) out[k++] = spec->required[0][0];
    return k;
}

static bool joined(const kt_search_spec *spec, uint32_t v, uint32_t w) {
    if (spec->jump && ((v == spec->required[0][0] && w == spec->required[0][1]) ||
                       (v == spec->required[0][1] && w == spec->required[0][0])))
        return true;
    return kt_is_knight_move(spec->cols, v, w);
}

static void visit(search *s, uint32_t v) {
    uint32_t nb[MOVES];
    int k = neighbours(s->spec, v, nb);
    s->visited[v] = 1;
    if (s->degree[v] <= 1) s->low_degree--;
    if (s->degree[v] == 0) s->zero_degree--;
    for (int i = 0; i < k; i++) {
        if (s->visited[nb[i]]) continue;
        uint8_t d = --s->degree[nb[i]];
        if (d == 1) s->low_degree++;
        if (d == 0) s->zero_degree++;
    }
}

static void unvisit(search *s, uint32_t v) {
    uint32_t nb[MOVES];
    int k = neighbours(s->spec, v, nb);
    for (int i = 0; i < k; i++) {
        if (s->visited[nb[i]]) continue;
        uint8_t d = s->degree[nb[i]]++;
        if (d == 1) s->low_degree--;
        if (d == 0) s->zero_degree--;
    }
    s->visited[v] = 0;
    if (s->degree[v] <= 1) s->low_degree++;
    if (s->degree[v] == 0) s->zero_degree++;
}

/* Dead-end pruning after arriving on `v` with `remaining` squares left: every unvisited square must
 * still be enterable, and at most one (the end) may be left with a single way in. */
static bool hopeless(const search *s, uint32_t v, uint32_t remaining) {
    uint32_t nb[MOVES], adjacent_low = 0, adjacent_zero = 0;
    int k = neighbours(s->spec, v, nb);
    bool end_counted = false;
    uint32_t end = s->spec->end;
    for (int i = 0; i < k; i++) {
        if (s->visited[nb[i]]) continue;
        if (s->degree[nb[i]] <= 1) adjacent_low++;
        if (s->degree[nb[i]] == 0) adjacent_zero++;
    }
    if (s->zero_degree > adjacent_zero) return true;     /* a square nobody can reach */
    if (adjacent_zero > 0 && remaining > 1) return true; /* a dead end next to us, not last */
    uint32_t must_end = s->low_degree - adjacent_low;
    if (end != KT_NONE_SQUARE && !s->visited[end] && s->degree[end] <= 1) {
        bool end_adjacent = joined(s->spec, v, end);
        end_counted = !end_adjacent;
    }
    if (end != KT_NONE_SQUARE) return must_end > (end_counted ? 1u : 0u);
    return must_end > 1;
}

/* On a board with a side of 4 the outer lines only touch the inner ones and a tour must alternate
 * between them but for a single inner-to-inner step; `inner_steps` counts those along the path. */
static bool on_inner_line(const search *s, uint32_t v) {
    int r = (int)(v / (uint32_t)s->spec->cols), c = (int)(v % (uint32_t)s->spec->cols);
    if (s->spec->rows == 4) return r == 1 || r == 2;
    return c == 1 || c == 2;
}

static bool inner_pair_repeated(search *s, const uint32_t *path, uint32_t depth) {
    if (s->spec->rows != 4 && s->spec->cols != 4) return false;
    bool inner_step = on_inner_line(s, path[depth]) && on_inner_line(s, path[depth - 1]);
    s->inner_steps[depth] = s->inner_steps[depth - 1] + (inner_step ? 1 : 0);
    return s->inner_steps[depth] > 1;
}

static int64_t centre_distance(const kt_search_spec *spec, uint32_t v) {
    int64_t dr = 2 * (int64_t)(v / (uint32_t)spec->cols) - (spec->rows - 1);
    int64_t dc = 2 * (int64_t)(v % (uint32_t)spec->cols) - (spec->cols - 1);
    return dr * dr + dc * dc;
}

static uint32_t apply_move(const kt_search_spec *spec, uint32_t v, int move) {
    if (move == JUMP_MOVE) return spec->required[0][1];
    return (uint32_t)((int64_t)v + kt_move_dr[move] * (int64_t)spec->cols + kt_move_dc[move]);
}

static bool move_fits(const kt_search_spec *spec, uint32_t v, int move) {
    if (move == JUMP_MOVE) return spec->jump && v == spec->required[0][0];
    int r = (int)(v / (uint32_t)spec->cols) + kt_move_dr[move], c = (int)(v % (uint32_t)spec->cols) + kt_move_dc[move];
    return r >= 0 && r < spec->rows && c >= 0 && c < spec->cols;
}

/* Warnsdorff order: fewer onward moves first, then farther from the centre. */
static bool tried_before(const search *s, uint32_t a, uint32_t b) {
    if (s->degree[a] != s->degree[b]) return s->degree[a] < s->degree[b];
    int64_t da = centre_distance(s->spec, a), db = centre_distance(s->spec, b);
    return da != db ? da > db : a < b;
}

/* The required-edge partners of v (at most 2 in a feasible spec); returns how many. */
static int partners(const kt_search_spec *spec, uint32_t v, uint32_t out[KT_MAX_REQUIRED]) {
    int count = 0;
    for (int i = 0; i < spec->required_count; i++) {
        if (spec->required[i][0] == v) out[count++] = spec->required[i][1];
        else if (spec->required[i][1] == v) out[count++] = spec->required[i][0];
    }
    return count;
}

/* Whether the path may step from v onto w: w is free, is the fixed end only as the last square, owes
 * no required edge to an already visited square other than v, and the jump, if w is one of its ends,
 * is walked its way (into its head only from its tail, into its tail never from its head). */
static bool may_enter(const search *s, uint32_t v, uint32_t w, uint32_t remaining) {
    const kt_search_spec *spec = s->spec;
    if (s->visited[w] || (w == spec->end && remaining > 1)) return false;
    for (int i = 0; i < spec->required_count; i++) {
        int side = spec->required[i][0] == w ? 0 : spec->required[i][1] == w ? 1 : -1;
        if (side < 0) continue;
        uint32_t partner = spec->required[i][1 - side];
        if (partner != v && s->visited[partner]) return false;
        if (spec->jump && i == 0 && (side == 1) != (partner == v)) return false;
    }
    return true;
}

/* The moves to try from v (entered from `from`, KT_NONE_SQUARE at the start), in trying order. */
static void list_candidates(search *s, uint32_t depth, uint32_t v, uint32_t from, uint32_t remaining) {
    const kt_search_spec *spec = s->spec;
    uint8_t *out = s->candidates[depth];
    uint8_t count = 0;
    uint32_t p[KT_MAX_REQUIRED], forced = KT_NONE_SQUARE;
    int k = partners(spec, v, p), outstanding = 0;
    for (int i = 0; i < k; i++) {
        if (p[i] == from) continue;
        outstanding++;
        forced = p[i];
    }
    s->candidate_next[depth] = 0;
    for (int move = 0; move < MOVES && outstanding <= 1; move++) {
        if (!move_fits(spec, v, move)) continue;
        uint32_t w = apply_move(spec, v, move);
        if ((outstanding == 1 && w != forced) || !may_enter(s, v, w, remaining)) continue;
        int j = count++;
        while (spec->ordered && j > 0 && tried_before(s, w, apply_move(spec, v, out[j - 1]))) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = (uint8_t)move;
    }
    s->candidate_count[depth] = count;
}

static core_status run(search *s, const deadline *limit, uint32_t *path, kt_search_result *result) {
    const kt_search_spec *spec = s->spec;
    uint32_t n = s->n;
    uint64_t nodes = 0;
    progress_begin(progress_of(limit), "nodes", PROGRESS_NO_TOTAL); /* moves tried; no total is known */
    path[0] = spec->start;
    visit(s, spec->start);
    *result = KT_SEARCH_NONE;
    if (n == 1) {
        if (spec->end == KT_NONE_SQUARE || spec->end == spec->start) *result = KT_SEARCH_FOUND;
        return CORE_OK;
    }
    if (spec->end == spec->start) return CORE_OK;
    list_candidates(s, 0, spec->start, KT_NONE_SQUARE, n - 1);
    uint32_t depth = 0; /* path[0..depth] is placed */
    for (;;) {
        if (s->candidate_next[depth] == s->candidate_count[depth]) {
            if (depth == 0) return CORE_OK;
            unvisit(s, path[depth]);
            depth--;
            continue;
        }
        uint32_t w = apply_move(spec, path[depth], s->candidates[depth][s->candidate_next[depth]++]);
        if (++nodes % POLL_EVERY == 0) {
            progress_add(progress_of(limit), POLL_EVERY);
            if (deadline_expired(limit)) return CORE_DEADLINE;
            if (spec->node_limit != 0 && nodes >= spec->node_limit) {
                *result = KT_SEARCH_NODE_LIMIT;
                return CORE_OK;
            }
        }
        visit(s, w);
        path[++depth] = w;
        uint32_t remaining = n - 1 - depth;
        if (remaining == 0) {
            if (!spec->closed || kt_is_knight_move(spec->cols, w, spec->start)) {
                *result = KT_SEARCH_FOUND;
                return CORE_OK;
            }
            s->candidate_count[depth] = s->candidate_next[depth] = 0;
            continue;
        }
        if (spec->ordered && (hopeless(s, w, remaining) || inner_pair_repeated(s, path, depth))) {
            s->candidate_count[depth] = s->candidate_next[depth] = 0;
            continue;
        }
        list_candidates(s, depth, w, path[depth - 1], remaining);
    }
}

core_status kt_search_path(const kt_search_spec *spec, const deadline *limit, uint32_t *path,
                           kt_search_result *result) {
    search s = {.spec = spec, .n = (uint32_t)spec->rows * (uint32_t)spec->cols};
    s.visited = calloc(s.n, 1);
    s.degree = malloc(s.n);
    s.candidates = malloc(sizeof *s.candidates * s.n);
    s.candidate_count = malloc(s.n);
    s.candidate_next = malloc(s.n);
    s.inner_steps = calloc(s.n, 1);
    core_status status = CORE_NO_MEMORY;
    if (!s.visited || !s.degree || !s.candidates || !s.candidate_count || !s.candidate_next || !s.inner_steps) goto out;
    status = CORE_OK;
    for (uint32_t v = 0; v < s.n; v++) {
        uint32_t nb[MOVES];
        s.degree[v] = (uint8_t)neighbours(spec, v, nb);
        if (s.degree[v] <= 1) s.low_degree++;
        if (s.degree[v] == 0) s.zero_degree++;
    }
    for (int i = 0; i < spec->required_count; i++) {
        uint32_t a = spec->required[i][0], b = spec->required[i][1];
        uint32_t p[KT_MAX_REQUIRED];
        if (!joined(spec, a, b) || partners(spec, a, p) > 2 || partners(spec, b, p) > 2) {
            *result = KT_SEARCH_NONE;
            goto out;
        }
    }
    status = run(&s, limit, path, result);
out:
    free(s.visited);
    free(s.degree);
    free(s.candidates);
    free(s.candidate_count);
    free(s.candidate_next);
    free(s.inner_steps);
    return status;
}
