/* GET|POST /queens: n-queens solutions (listed in lexicographic order, optionally only fundamental
 * ones, in an offset/limit window), their counts, or one constructed solution for very large boards;
 * with `placed`, only the solutions that keep the queens already on the board.
 *
 * Decisions on `placed` ([row, col] squares): two placed queens that attack each other answer
 * {"n","found":false,"conflict":{...}} in every mode, naming the first such pair (row-major order);
 * a square off the board or taken twice is a 400. `unique` does not go with it (a placed queen breaks
 * the symmetry classes): 400 conflicting_fields. Counting with `placed` enumerates the completions
 * (the symmetric counter cannot be restricted); mode "first" searches for a completion
 * (core/queens/queens_complete.h) instead of the construction, and may run out of time.
 *
 * `format` "svg" draws one board (api/queens/queens_svg.h): mode "first", or mode "solutions" with a window of
 * one solution (limit defaults to 1 then; another limit is a 400 conflicting_fields, as is mode
 * "count", which has no board); boards above SVG_MAX_SQUARES are a 422 too_large naming `format`.
 * When there is nothing to draw (no solution, placed queens in conflict) the answer is the JSON one.
 *
 * `part` and `parts` (mode "count", given together) count one part of a split count
 * (core/queens/queens_parts.h): parts numbered from 0, as a Kubernetes Indexed Job numbers its pods;
 * the answer echoes both. A part is estimated at the whole count's estimate over `parts` (the split
 * balances the parts' estimated costs) and refused as a whole count is. The split is of the fast
 * counter's constellations, so it does not go with `placed` or another algorithm (400
 * conflicting_fields); a part outside its split is a 400 invalid_field. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/boards/board_squares.h"
#include "api/cost_estimates.h"
#include "api/endpoints.h"
#include "api/queens/json_number_runs.h"
#include "api/params.h"
#include "api/queens/queens_svg.h"
#include "api/boards/svg_writer.h"
#include "core/queens/queens_complete.h"
#include "core/queens/queens_count.h"
#include "core/queens/queens_first.h"
#include "core/queens/queens_parts.h"
#include "core/queens/queens_solutions.h"
#include "core/common/progress.h"

static const api_field fields[] = {
    {"n", FIELD_INTEGER},
    {"mode", FIELD_STRING},
    {"unique", FIELD_BOOLEAN},
    {"offset", FIELD_BIG_INTEGER},
    {"limit", FIELD_INTEGER},
    {"algorithm", FIELD_STRING},
    {"placed", FIELD_ARRAY},
    SVG_FORMAT_FIELD,
    {"part", FIELD_INTEGER},
    {"parts", FIELD_INTEGER},
    {NULL, 0},
};

enum { MODE_SOLUTIONS, MODE_COUNT, MODE_FIRST };
static const char *const modes[] = {"solutions", "count", "first", NULL};
/* In the order of queens_algorithm. */
static const char *const algorithms[] = {"bitmask", "backtracking", "permutation", NULL};

/* The room for the words that say why n has its largest value (largest_n). */
#define QUEENS_WHY_SIZE 160

typedef struct queens_request {
    int64_t n;
    int mode;
    bool unique;
    int64_t offset;
    int64_t limit; /* -1: no limit */
    queens_algorithm algorithm;
    queens_square *placed; /* the queens already on the board, row-major; NULL when none were given */
    size_t placed_count;
    bool svg;            /* format "svg": draw the one board */
    int64_t part, parts; /* a part of a split count; parts 0: the whole count */
} queens_request;

/* The largest n the mode and the algorithm allow, and, when `why` is not NULL, the words that say so. */
static int64_t largest_n(const api_request *req, const queens_request *q, char why[QUEENS_WHY_SIZE]) {
    if (q->mode == MODE_FIRST) {
        if (why != NULL) snprintf(why, QUEENS_WHY_SIZE, "for mode \"first\"");
        return (int64_t)req->limits->max_queens_n;
    }
    if (q->algorithm == QUEENS_PERMUTATION) {
        if (why != NULL)
            snprintf(why, QUEENS_WHY_SIZE,
                     "with algorithm \"permutation\", which tries all n! orders (\"bitmask\" and \"backtracking\" "
                     "take up to %d)",
                     QUEENS_MAX_N);
        return QUEENS_PERMUTATION_MAX_N;
    }
    if (why != NULL)
        snprintf(why, QUEENS_WHY_SIZE, "for mode \"%s\" (mode \"first\" takes boards up to %" PRIu64 ")",
                 modes[q->mode], req->limits->max_queens_n);
    return QUEENS_MAX_N;
}

/* Reads n once its mode and algorithm are known: above the largest board they allow it is a 422
 * "too_large", below 1 (or absent) a 400 naming the same range. */
static bool read_n(api_request *req, queens_request *q) {
    int64_t largest = largest_n(req, q, NULL);
    if (param_present(req, "n") && param_int(req, "n", INT64_MIN, INT64_MAX, 0, &q->n) && q->n > largest) {
        char why[QUEENS_WHY_SIZE];
        largest_n(req, q, why);
        api_fail(req, API_TOO_LARGE, "n", "n must be from 1 to %" PRId64 " %s; got %" PRId64, largest, why, q->n);
        return api_fail_range(req, 1, largest, q->n);
    }
    return param_int_required(req, "n", 1, largest, &q->n);
}

/* The fields one mode does not use are refused rather than ignored. */
static bool check_conflicts(api_request *req, const queens_request *q) {
    if (q->mode != MODE_SOLUTIONS) {
        const char *window = param_present(req, "offset") ? "offset" : param_present(req, "limit") ? "limit" : NULL;
        if (window != NULL) {
            return api_fail(req, API_CONFLICTING_FIELDS, window,
                            "%s applies only to mode \"solutions\"; mode \"%s\" has no list to window", window,
                            modes[q->mode]);
        }
    }
    if (q->unique && param_present(req, "placed")) {
        return api_fail(req, API_CONFLICTING_FIELDS, "unique",
                        "unique does not go with placed: placed queens break the symmetry classes; leave one out");
    }
    if (q->mode == MODE_FIRST && q->unique) {
        return api_fail(req, API_CONFLICTING_FIELDS, "unique",
                        "unique applies to modes \"solutions\" and \"count\"; mode \"first\" builds one solution");
    }
    if (q->svg && q->mode == MODE_COUNT) {
        return api_fail(req, API_CONFLICTING_FIELDS, "format",
                        "format \"svg\" draws one board: mode \"first\", or mode \"solutions\" with limit 1; "
                        "mode \"count\" has no board to draw");
    }
    if (q->svg && q->mode == MODE_SOLUTIONS && q->limit != 1) {
        return api_fail(req, API_CONFLICTING_FIELDS, "limit",
                        "format \"svg\" draws one board, so its window of solutions is one (limit 1, the default "
                        "with svg; choose the solution with offset); got limit %" PRId64,
                        q->limit);
    }
    if (q->mode == MODE_FIRST && param_present(req, "algorithm")) {
        return api_fail(req, API_CONFLICTING_FIELDS, "algorithm",
                        "algorithm applies to modes \"solutions\" and \"count\"; mode \"first\" uses the explicit "
                        "construction");
    }
    return true;
}

/* `part` of `parts`: both or neither, only for the fast counter's count, the part within its split. */
static bool read_part(api_request *req, queens_request *q) {
    bool has_part = param_present(req, "part"), has_parts = param_present(req, "parts");
    if (!has_part && !has_parts) return true;
    if (has_part != has_parts) {
        return api_fail(req, API_MISSING_FIELD, has_part ? "parts" : "part",
                        "part and parts go together: part i (from 0) of a count split into parts; %s is missing",
                        has_part ? "parts" : "part");
    }
    const char *other = q->mode != MODE_COUNT            ? "mode"
                        : param_present(req, "placed")   ? "placed"
                        : q->algorithm != QUEENS_BITMASK ? "algorithm"
                                                         : NULL;
    if (other != NULL) {
        return api_fail(req, API_CONFLICTING_FIELDS, "parts",
                        "parts split the fast count of every solution: mode \"count\" without placed, algorithm "
                        "\"bitmask\"; %s does not go with it",
                        other);
    }
    if (!param_int(req, "parts", 1, QUEENS_MAX_PARTS, 1, &q->parts) ||
        !param_int(req, "part", INT64_MIN, INT64_MAX, 0, &q->part)) {
        return false;
    }
    if (q->part < 0 || q->part >= q->parts) {
        api_fail(req, API_INVALID_FIELD, "part",
                 "part must be from 0 to %" PRId64 ": a count split into %" PRId64 " parts numbers them from 0; "
                 "got %" PRId64,
                 q->parts - 1, q->parts, q->part);
        return api_fail_range(req, 0, q->parts - 1, q->part);
    }
    return true;
}

/* `offset` as every listing takes it (a number or a string of digits), here up to
 * API_MAX_EXACT_INTEGER: the solutions before it are skipped one by one. */
static bool read_offset(api_request *req, queens_request *q) {
    mpz_t offset;
    mpz_init(offset);
    bool present = false, ok = false;
    q->offset = 0;
    if (!param_big_uint(req, "offset", offset, &present)) goto out;
    if (present && mpz_cmp_ui(offset, (unsigned long)API_MAX_EXACT_INTEGER) > 0) {
        api_fail(req, API_INVALID_FIELD, "offset",
                 "'offset' must be from 0 to %lld for /queens, whose solutions before it are skipped one by one",
                 (long long)API_MAX_EXACT_INTEGER);
        goto out;
    }
    if (present) q->offset = (int64_t)mpz_get_ui(offset);
    ok = true;
out:
    mpz_clear(offset);
    return ok;
}

static bool read_request(api_request *req, queens_request *q) {
    int mode, algorithm;
    q->unique = param_flag(req, "unique", false);
    if (!param_choice(req, "mode", modes, MODE_SOLUTIONS, &mode) ||
        !param_choice(req, "algorithm", algorithms, QUEENS_BITMASK, &algorithm) || !read_offset(req, q) ||
        !svg_param_format(req, &q->svg)) {
        return false;
    }
    /* A drawing is of one solution; a JSON list is one page unless asked for more; NDJSON is every one. */
    int64_t default_limit = q->svg ? 1 : req->ndjson ? -1 : (int64_t)req->limits->default_page;
    if (!param_int(req, "limit", 0, API_MAX_EXACT_INTEGER, default_limit, &q->limit)) {
        return false;
    }
    q->mode = mode;
    q->algorithm = (queens_algorithm)algorithm;
    if (!check_conflicts(req, q) || !read_n(req, q) || !read_part(req, q) ||
        (q->svg && !svg_check_squares(req, (uint64_t)q->n * (uint64_t)q->n, "ask for JSON (leave out format)"))) {
        return false;
    }
    const cJSON *placed = param_array(req, "placed");
    return placed == NULL || board_queens_read(req, "placed", placed, (uint32_t)q->n, &q->placed, &q->placed_count);
}

/* ---- placed queens that attack each other: {"n","found":false,"conflict":{...}} in every mode ---- */

static bool answer_conflict(api_request *req, api_response *res, const queens_request *q, bool *conflict) {
    queens_attack first;
    size_t listed;
    uint64_t pairs;
    if (!api_fail_status(req,
                         queens_find_attacks((uint32_t)q->n, q->placed, q->placed_count, &first, 1, &listed, &pairs))) {
        return false;
    }
    *conflict = pairs > 0;
    if (*conflict) {
        api_open_answer(&res->body, "queens_conflict");
        jw_str(&res->body, "\"n\":");
        jw_int(&res->body, q->n);
        jw_str(&res->body, ",\"found\":false,\"conflict\":");
        board_attack_write(&res->body, &first);
        jw_char(&res->body, '}');
    }
    return true;
}

static void require_placed(queens_iter *it, const queens_request *q) {
    for (size_t i = 0; i < q->placed_count; i++) {
        queens_iter_require(it, (int)q->placed[i].row, (int)q->placed[i].col);
    }
}

/* ---- mode "count": {"kind":"queens_count","n":N,"found":B,"total":"K"}, "unique_total":"U" with
 * unique, "part":I,"parts":P for a part ---- */

/* Counts the completions of the placed queens by listing them. */
static core_status count_completions(const queens_request *q, const deadline *dl, queens_counts *counts) {
    queens_iter it;
    queens_iter_init(&it, (int)q->n, q->algorithm, false);
    require_placed(&it, q);
    *counts = (queens_counts){0};
    bool found;
    core_status status;
    while ((status = queens_iter_next(&it, dl, &found)) == CORE_OK && found) {
        counts->total++;
    }
    return status;
}

/* The model's seconds for a count of n, or for one of `parts` parts of it (parts 0 or 1: the whole). */
static double count_seconds(const queens_cost *cost, int n, int64_t parts) {
    return queens_cost_seconds(cost, n) / (double)(parts > 1 ? parts : 1);
}

/* A count without placed queens that the calibrated model says cannot finish in time is refused at
 * once (api/cost_estimates.h); the model is the fast counter's, a lower bound for the others. The
 * largest n that fits a part is the largest whose whole count fits `parts` times the limit. */
static bool check_count_feasible(api_request *req, const queens_request *q) {
    const queens_cost *cost = api_queens_cost();
    if (cost == NULL || q->placed != NULL) return true;
    double limit = api_time_limit_seconds(req);
    double shares = q->parts > 1 ? (double)q->parts : 1;
    return api_check_estimate(req, "n", q->parts > 0 ? "counting this part" : "counting the solutions",
                              count_seconds(cost, (int)q->n, q->parts), limit,
                              queens_cost_largest_n(cost, limit * shares));
}

/* The count asked for: one part of a split, the completions of placed queens, or all solutions. */
static core_status count(const api_request *req, const queens_request *q, queens_counts *counts) {
    if (q->parts > 0) {
        queens_part part;
        core_status status = queens_part_select((int)q->n, (uint32_t)q->part, (uint32_t)q->parts, &part);
        if (status == CORE_OK) status = queens_count_part(&part, 0, &req->deadline, counts);
        queens_part_free(&part);
        return status;
    }
    return q->placed != NULL ? count_completions(q, &req->deadline, counts)
           : q->algorithm == QUEENS_BITMASK
               ? queens_count_fast((int)q->n, 0, &req->deadline, counts)
               : queens_count_by_enumeration((int)q->n, q->algorithm, &req->deadline, counts);
}

static bool answer_count(api_request *req, api_response *res, const queens_request *q) {
    if (!check_count_feasible(req, q)) return false;
    queens_counts counts;
    if (!api_fail_status(req, count(req, q, &counts))) {
        return false;
    }
    json_writer *out = &res->body;
    api_open_answer(out, "queens_count");
    jw_str(out, "\"n\":");
    jw_int(out, q->n);
    jw_str(out, counts.total > 0 ? ",\"found\":true" : ",\"found\":false");
    jw_str(out, ",\"total\":");
    jw_uint_string(out, counts.total);
    if (q->unique) {
        jw_str(out, ",\"unique_total\":");
        jw_uint_string(out, counts.unique);
    }
    if (q->parts > 0) {
        jw_str(out, ",\"part\":");
        jw_int(out, q->part);
        jw_str(out, ",\"parts\":");
        jw_int(out, q->parts);
    }
    jw_char(out, '}');
    return true;
}

/* ---- mode "solutions": streamed, {"kind":"queens_solutions","n":N,"solutions":[...],"found":B,
 * "next_offset":"..."|null} (a page of the window) or one array per line ---- */

typedef struct solutions_stream {
    queens_iter it;
    deadline dl;
    bool ndjson;
    bool head_written;
    bool pending;      /* the iterator holds a solution not yet written (past the window: the next page's first) */
    int64_t offset;    /* the window's first solution */
    int64_t remaining; /* solutions still allowed by the limit; -1: no limit */
    uint64_t listed;
} solutions_stream;

static void write_solution(json_writer *out, const int *cols, int n) {
    jw_char(out, '[');
    for (int r = 0; r < n; r++) {
        if (r > 0) {
            jw_char(out, ',');
        }
        jw_int(out, cols[r]);
    }
    jw_char(out, ']');
}

/* Moves to the next solution; on CORE_OK s->pending says whether there is one (false after the last). */
static core_status advance(solutions_stream *s) {
    s->pending = false;
    return queens_iter_next(&s->it, &s->dl, &s->pending);
}

/* The JSON list's tail: whether any was listed, and the next page's offset when a solution follows. */
static void write_tail(const solutions_stream *s, json_writer *out) {
    char next[24];
    snprintf(next, sizeof next, "%" PRIu64, (uint64_t)s->offset + s->listed);
    jw_str(out, "],\"found\":");
    jw_str(out, s->listed > 0 ? "true," : "false,");
    api_write_next_offset(out, s->pending ? next : NULL);
    jw_char(out, '}');
}

static stream_status solutions_next(void *state, json_writer *out, size_t want) {
    solutions_stream *s = state;
    size_t start = out->len;
    if (!s->head_written && !s->ndjson) {
        api_open_answer(out, "queens_solutions");
        jw_str(out, "\"n\":");
        jw_int(out, s->it.n);
        jw_str(out, ",\"solutions\":[");
    }
    s->head_written = true;
    while (out->len - start < want) {
        if (!s->pending || s->remaining == 0) {
            if (!s->ndjson) {
                write_tail(s, out);
            }
            return STREAM_DONE;
        }
        if (s->listed > 0 && !s->ndjson) {
            jw_char(out, ',');
        }
        write_solution(out, queens_iter_solution(&s->it), s->it.n);
        if (s->ndjson) {
            jw_char(out, '\n');
        }
        s->listed++;
        progress_add(s->dl.progress, 1);
        if (s->remaining > 0) {
            s->remaining--;
        }
        if (advance(s) != CORE_OK) { /* the next solution: this page's or the next page's first */
            return STREAM_FAILED;
        }
    }
    return STREAM_MORE;
}

static void draw_solution(api_response *res, const queens_request *q, const int *solution) {
    uint32_t cols[QUEENS_MAX_N];
    for (int64_t row = 0; row < q->n; row++) {
        cols[row] = (uint32_t)solution[row];
    }
    queens_respond_svg(res, (uint32_t)q->n, cols, q->placed, q->placed_count);
}

static bool answer_solutions(api_request *req, api_response *res, const queens_request *q) {
    solutions_stream *s = calloc(1, sizeof *s);
    if (s == NULL) {
        return api_fail_out_of_memory(req);
    }
    queens_iter_init(&s->it, (int)q->n, q->algorithm, q->unique);
    require_placed(&s->it, q);
    s->dl = req->deadline;
    s->ndjson = req->ndjson;
    s->remaining = q->limit;
    s->offset = q->offset;
    progress_begin(req->deadline.progress, "solutions", PROGRESS_NO_TOTAL); /* listed so far */
    /* Skip the offset and find the window's first solution now, so running out of time before any
     * output is a plain 503. */
    bool ok = false;
    core_status status = CORE_OK;
    for (int64_t skipped = 0; skipped <= q->offset; skipped++) {
        status = advance(s);
        if (!s->pending) {
            break;
        }
    }
    if (!api_fail_status(req, status)) goto out;
    ok = true;
    if (q->svg && s->pending) {
        draw_solution(res, q, queens_iter_solution(&s->it));
        goto out;
    }
    s->dl = req->time_limit; /* the rest is produced after this handler returns */
    api_respond_stream(req, res, s, solutions_next, free, req->ndjson);
    s = NULL;
out:
    free(s);
    return ok;
}

/* ---- mode "first": {"kind":"queens_first","n":N,"found":true,"solution":[...]}, built whole up to API_WHOLE_BODY_BYTES,
 * streamed row by row above ---- */

typedef struct first_stream {
    uint64_t n;
    uint64_t row;   /* next row to write */
    uint32_t *cols; /* a completion of placed queens, or NULL for the construction */
    bool head_written;
} first_stream;

static void first_stream_free(void *state) {
    first_stream *s = state;
    free(s->cols);
    free(s);
}

static uint64_t first_column(const first_stream *s, uint64_t row) {
    return s->cols != NULL ? s->cols[row] : queens_first_column(s->n, row);
}

/* Rows from s->row up to `end`, each column after a comma: the construction's rising runs formatted
 * incrementally (api/json_number_runs.h), a completion's columns one by one. */
static char *put_columns(first_stream *s, char *to, uint64_t end) {
    while (s->row < end) {
        if (s->cols != NULL) {
            *to++ = ',';
            to = jw_put_uint(to, s->cols[s->row++]);
            continue;
        }
        queens_first_run run = queens_first_run_at(s->n, s->row);
        uint64_t rows = run.rows < end - s->row ? run.rows : end - s->row;
        to = jw_put_uint_run(to, run.column, QUEENS_FIRST_STEP, rows);
        s->row += rows;
    }
    return to;
}

static stream_status first_next(void *state, json_writer *out, size_t want) {
    first_stream *s = state;
    uint64_t token_bytes = 1 + jw_uint_digits(s->n);        /* a comma and at most as many digits as n */
    uint64_t run_rows = API_STREAM_RUN_BYTES / token_bytes; /* rows formatted per reservation */
    size_t start = out->len;
    if (!s->head_written) {
        api_open_answer(out, "queens_first");
        jw_str(out, "\"n\":");
        jw_uint(out, s->n);
        jw_str(out, ",\"found\":true,\"solution\":[");
        jw_uint(out, first_column(s, 0));
        s->row = 1;
        s->head_written = true;
    }
    while (out->len - start < want && s->row < s->n) {
        if (!bb_reserve(out, run_rows * token_bytes + JW_UINT_MAX_DIGITS)) return STREAM_FAILED;
        uint64_t end = s->n - s->row < run_rows ? s->n : s->row + run_rows;
        char *to = put_columns(s, out->data + out->len, end);
        *to = '\0';
        out->len = (size_t)(to - out->data);
    }
    if (s->row < s->n) {
        return STREAM_MORE;
    }
    jw_str(out, "]}");
    return STREAM_DONE;
}

/* Bytes of the answer's other members and brackets, `{"kind":"queens_first","n":N,"found":true,
 * "solution":[` and `]}`, at most (N up to 20 digits). */
enum { FIRST_FRAME_BYTES = 96 };

/* An upper bound on the answer's size: every column has as many digits as n. */
static uint64_t first_body_bytes(uint64_t n) { return n * (jw_uint_digits(n) + 1) + FIRST_FRAME_BYTES; }

/* A completion of the placed queens by search: into `*cols`, or *cols NULL when there is none. */
static core_status complete_placed(const api_request *req, const queens_request *q, uint32_t **cols) {
    bool completed = false;
    core_status status = CORE_NO_MEMORY;
    *cols = malloc((size_t)q->n * sizeof **cols);
    if (*cols == NULL) goto out;
    status = queens_complete((uint32_t)q->n, q->placed, q->placed_count, &req->deadline, *cols, &completed);
out:
    if (!completed) {
        free(*cols);
        *cols = NULL;
    }
    return status;
}

/* Draws the completion `cols` (freed here), or the construction when it is NULL. */
static bool draw_first(api_request *req, api_response *res, const queens_request *q, uint32_t *cols) {
    if (cols == NULL) {
        cols = malloc((size_t)q->n * sizeof *cols);
        if (cols == NULL) {
            return api_fail_out_of_memory(req);
        }
        for (uint64_t row = 0; row < (uint64_t)q->n; row++) {
            cols[row] = (uint32_t)queens_first_column((uint64_t)q->n, row);
        }
    }
    queens_respond_svg(res, (uint32_t)q->n, cols, q->placed, q->placed_count);
    free(cols);
    return true;
}

static bool answer_first(api_request *req, api_response *res, const queens_request *q) {
    uint32_t *cols = NULL;
    bool ok = false;
    if (q->placed != NULL && !api_fail_status(req, complete_placed(req, q, &cols))) {
        goto out;
    }
    bool exists = q->placed != NULL ? cols != NULL : queens_first_exists((uint64_t)q->n);
    if (!exists) {
        api_open_answer(&res->body, "queens_first");
        jw_str(&res->body, "\"n\":");
        jw_int(&res->body, q->n);
        jw_str(&res->body, ",\"found\":false}");
        ok = true;
        goto out;
    }
    if (q->svg) {
        ok = draw_first(req, res, q, cols);
        cols = NULL; /* freed by drawing */
        goto out;
    }
    first_stream *s = calloc(1, sizeof *s);
    if (s == NULL) {
        api_fail_out_of_memory(req);
        goto out;
    }
    s->n = (uint64_t)q->n;
    s->cols = cols;
    cols = NULL; /* the stream's now */
    if (first_body_bytes(s->n) <= API_WHOLE_BODY_BYTES) {
        ok = api_respond_whole(req, res, s, first_next, first_stream_free, false);
    } else {
        api_respond_bounded_stream(req, res, s, first_next, first_stream_free, false);
        ok = true;
    }
out:
    free(cols);
    return ok;
}

static bool answer(api_request *req, api_response *res, const queens_request *q) {
    if (q->placed != NULL) {
        bool conflict;
        if (!answer_conflict(req, res, q, &conflict)) {
            return false;
        }
        if (conflict) {
            return true;
        }
    }
    switch (q->mode) {
    case MODE_COUNT: return answer_count(req, res, q);
    case MODE_FIRST: return answer_first(req, res, q);
    default: return answer_solutions(req, res, q);
    }
}

static bool answer_queens(api_request *req, api_response *res) {
    queens_request q = {0};
    bool ok = read_request(req, &q) && answer(req, res, &q);
    free(q.placed);
    return ok;
}

/* Mode "first" of the construction (no placed queens, no drawing) on a board whose answer streams:
 * the handler only sets up the stream (api_endpoint.starts_at_once). Fields it does not look at are
 * left to the handler, whose answer to them (a 400) is as quick. */
static bool first_starts_at_once(const api_request *req) {
    const char *mode = param_string(req, "mode");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(req->params, "n");
    return mode != NULL && strcmp(mode, "first") == 0 && !param_present(req, "placed") &&
           !param_present(req, "format") && cJSON_IsNumber(n) && n->valuedouble >= 1 &&
           n->valuedouble <= (double)req->limits->max_queens_n &&
           first_body_bytes((uint64_t)n->valuedouble) > API_WHOLE_BODY_BYTES;
}

/* Boards up to which a count is small work (api/api.h's API_SMALL_WORK_SECONDS): the plain
 * enumeration counts n = 8 in about 7 us on one core (core/queens/queens_count.h), n = 10 in 0.29 ms. */
#define QUEENS_SMALL_COUNT_N 8

/* A count of the fast counter's (mode "count" without placed queens, algorithm "bitmask"), whole or a
 * part: small work up to QUEENS_SMALL_COUNT_N, else its calibrated model (api/cost_estimates.h),
 * fitted to larger boards, over the parts. Other requests are not estimated. */
static double queens_estimate_seconds(const api_request *req) {
    const queens_cost *cost = api_queens_cost();
    const char *mode = param_string(req, "mode"), *algorithm = param_string(req, "algorithm");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(req->params, "n");
    bool fast_count = cost != NULL && mode != NULL && strcmp(mode, "count") == 0 && !param_present(req, "placed") &&
                      (algorithm == NULL || strcmp(algorithm, "bitmask") == 0) && cJSON_IsNumber(n) &&
                      n->valuedouble >= 1 && n->valuedouble <= QUEENS_MAX_N;
    if (!fast_count) return -1;
    const cJSON *parts = cJSON_GetObjectItemCaseSensitive(req->params, "parts");
    int64_t shares = cJSON_IsNumber(parts) && parts->valuedouble >= 1 && parts->valuedouble <= QUEENS_MAX_PARTS
                         ? (int64_t)parts->valuedouble
                         : 1;
    return n->valuedouble <= QUEENS_SMALL_COUNT_N ? API_SMALL_WORK_SECONDS
                                                  : count_seconds(cost, (int)n->valuedouble, shares);
}

const api_endpoint queens_endpoint = {.fields = fields,
                                      .handler = answer_queens,
                                      .starts_at_once = first_starts_at_once,
                                      .estimate_seconds = queens_estimate_seconds};
