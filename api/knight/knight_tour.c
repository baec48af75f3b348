/* /knight-tour: an open or closed knight's tour of a rows x cols board from a start square, or a
 * proven "none exists" with the reason.
 *
 * Decisions: `n` is shorthand for a square board and conflicts with `rows`/`cols`; without it both
 * are required. Each side is from 1 to the configured maximum of squares, and a board of more squares
 * than that is a 422 "too_large"; "backtracking" is limited to KT_BACKTRACKING_MAX_SQUARES squares
 * (422 "too_large", field "algorithm"). When "warnsdorff" gets stuck nothing is proven, so the answer is
 * a 422 "heuristic_failed" rather than "found": false. The path (or board) is streamed: with
 * Accept: application/x-ndjson the first line is the head object and then one square [row, col] (or
 * one board row) per line. Format "svg" draws the tour (api/knight/knight_tour_svg.h) on boards of at most
 * SVG_MAX_SQUARES squares (above: 422 "too_large", field "format"); when there is no tour the answer is
 * the JSON one, with its reason. A board whose tour the calibrated model (api/cost_estimates.h) says
 * cannot be built within the time limit is refused at once, 422 "too_large" (field "n" or "rows"), the
 * largest that fits counted in squares; a board no tour exists on is answered by its theorem, never
 * refused. */
#include <stdlib.h>

#include "api/cost_estimates.h"
#include "api/endpoints.h"
#include "api/knight/knight_tour_svg.h"
#include "api/params.h"
#include "api/boards/svg_writer.h"
#include "core/knight/knight_tour.h"

static const api_field fields[] = {
    {"rows", FIELD_INTEGER},   {"cols", FIELD_INTEGER},     {"n", FIELD_INTEGER},     {"start", FIELD_ARRAY},
    {"closed", FIELD_BOOLEAN}, {"algorithm", FIELD_STRING}, {"format", FIELD_STRING}, {NULL, 0},
};

static const char *const algorithms[] = {"auto", "warnsdorff", "backtracking", NULL};
static const char *const formats[] = {"path", "board", "svg", NULL};
enum { FORMAT_PATH, FORMAT_BOARD, FORMAT_SVG };

typedef struct tour_query {
    kt_request request;
    int format;
} tour_query;

static bool fail_start(api_request *req, const tour_query *q) {
    return api_fail(req, API_INVALID_FIELD, "start",
                    "'start' must be [row, col] with 0 <= row < %d and 0 <= col < %d (GET: start=row,col)",
                    q->request.rows, q->request.cols);
}

static bool read_start(api_request *req, tour_query *q) {
    const cJSON *start = param_array(req, "start");
    if (start == NULL) return true; /* [0, 0] */
    if (cJSON_GetArraySize(start) != 2) return fail_start(req, q);
    int64_t at[2];
    for (int i = 0; i < 2; i++) {
        const cJSON *item = cJSON_GetArrayItem(start, i);
        double limit = i == 0 ? q->request.rows : q->request.cols;
        /* The range first: converting a double outside int64_t's range is undefined. */
        if (!cJSON_IsNumber(item) || !(item->valuedouble >= 0 && item->valuedouble < limit) ||
            item->valuedouble != (double)(int64_t)item->valuedouble)
            return fail_start(req, q);
        at[i] = (int64_t)item->valuedouble;
    }
    q->request.start_row = (int)at[0];
    q->request.start_col = (int)at[1];
    return true;
}

static bool read_query(api_request *req, tour_query *q) {
    int64_t max_side = (int64_t)req->limits->max_board_squares, rows, cols;
    if (max_side > INT32_MAX) max_side = INT32_MAX;
    if (param_present(req, "n")) {
        if (param_present(req, "rows") || param_present(req, "cols"))
            return api_fail(req, API_CONFLICTING_FIELDS, "n",
                            "give either 'n' (a square board) or 'rows' and 'cols', not both");
        if (!param_int(req, "n", 1, max_side, 8, &rows)) return false;
        cols = rows;
    } else if (!param_int_required(req, "rows", 1, max_side, &rows) ||
               !param_int_required(req, "cols", 1, max_side, &cols)) {
        return false;
    }
    int algorithm;
    q->request.closed = param_flag(req, "closed", false);
    if (!param_choice(req, "algorithm", algorithms, KT_ALGORITHM_AUTO, &algorithm) ||
        !param_choice(req, "format", formats, FORMAT_PATH, &q->format))
        return false;
    q->request.rows = (int)rows;
    q->request.cols = (int)cols;
    q->request.algorithm = (kt_algorithm)algorithm;
    uint64_t squares = (uint64_t)rows * (uint64_t)cols;
    if (squares > req->limits->max_board_squares) {
        api_fail(req, API_TOO_LARGE, param_present(req, "n") ? "n" : "rows",
                 "the board has %llu squares; at most %llu are allowed", (unsigned long long)squares,
                 (unsigned long long)req->limits->max_board_squares);
        return api_fail_range(req, 1, (long long)req->limits->max_board_squares, (long long)squares);
    }
    if (q->request.algorithm == KT_ALGORITHM_BACKTRACKING && squares > KT_BACKTRACKING_MAX_SQUARES)
        return api_fail(req, API_TOO_LARGE, "algorithm",
                        "algorithm 'backtracking' takes boards of at most %u squares (this one has %llu); use "
                        "'auto' for larger boards",
                        KT_BACKTRACKING_MAX_SQUARES, (unsigned long long)squares);
    if (q->format == FORMAT_SVG && !svg_check_squares(req, squares, "ask for format \"path\" or \"board\""))
        return false;
    return read_start(req, q);
}

/* The members every answer and the NDJSON head line open with, `"rows":..,"found":..`; the caller
 * opens the object (a JSON answer with its kind, a head line bare). */
static void write_head(json_writer *out, const kt_request *r, bool found) {
    jw_str(out, "\"rows\":");
    jw_int(out, r->rows);
    jw_str(out, ",\"cols\":");
    jw_int(out, r->cols);
    jw_str(out, ",\"closed\":");
    jw_str(out, r->closed ? "true" : "false");
    jw_str(out, ",\"found\":");
    jw_str(out, found ? "true" : "false");
}

/* ---- the streamed tour ---- */

typedef struct tour_stream {
    kt_request request;
    kt_result result;
    uint32_t *move_number; /* format "board": 1-based move number per square, else NULL */
    uint32_t next;         /* the next square (path) or board row to write */
    uint32_t total;
    bool ndjson, head_written;
} tour_stream;

static void tour_stream_free(void *state) {
    tour_stream *t = state;
    kt_result_free(&t->result);
    free(t->move_number);
    free(t);
}

/* One square [r,c] or board row [m,...], formatted straight into `out` in room reserved at once. */
static void write_item(tour_stream *t, json_writer *out) {
    uint32_t cols = (uint32_t)t->request.cols;
    size_t numbers = t->move_number == NULL ? 2 : cols;
    if (!bb_reserve(out, numbers * (1 + JW_UINT_MAX_DIGITS) + 2)) return;
    char *to = out->data + out->len;
    *to++ = '[';
    if (t->move_number == NULL) {
        uint32_t square = t->result.path[t->next];
        to = jw_put_uint(to, square / cols);
        *to++ = ',';
        to = jw_put_uint(to, square % cols);
    } else {
        const uint32_t *row = t->move_number + (size_t)t->next * cols;
        for (uint32_t c = 0; c < cols; c++) {
            if (c > 0) *to++ = ',';
            to = jw_put_uint(to, row[c]);
        }
    }
    *to++ = ']';
    *to = '\0';
    out->len = (size_t)(to - out->data);
}

/* JSON: the head, then "path":[[r,c],...] or "board":[[...],...]. NDJSON: the head object alone on the
 * first line, then one square or board row per line. */
static stream_status tour_stream_next(void *state, json_writer *out, size_t want) {
    tour_stream *t = state;
    size_t target = out->len + want;
    if (!t->head_written) {
        api_open_answer(out, t->ndjson ? NULL : "knight_tour_found");
        write_head(out, &t->request, true);
        if (t->ndjson) jw_str(out, "}\n");
        else jw_str(out, t->move_number ? ",\"board\":[" : ",\"path\":[");
        t->head_written = true;
    }
    while (t->next < t->total && out->len < target) {
        if (!t->ndjson && t->next > 0) jw_char(out, ',');
        write_item(t, out);
        if (t->ndjson) jw_char(out, '\n');
        t->next++;
    }
    if (out->out_of_memory) return STREAM_FAILED;
    if (t->next < t->total) return STREAM_MORE;
    if (!t->ndjson) jw_str(out, "]}");
    return STREAM_DONE;
}

/* Answers the tour `result` (owned from here on). */
static bool respond_tour(api_request *req, api_response *res, const tour_query *q, kt_result result) {
    bool ok = false;
    tour_stream *t = NULL;
    if (q->format == FORMAT_SVG) {
        knight_tour_respond_svg(res, &q->request, result.path);
        ok = true;
        goto out;
    }
    t = calloc(1, sizeof *t);
    if (t == NULL) goto out;
    uint32_t squares = (uint32_t)q->request.rows * (uint32_t)q->request.cols;
    t->request = q->request;
    t->result = result;
    result.path = NULL; /* the stream's now */
    t->total = q->format == FORMAT_BOARD ? (uint32_t)q->request.rows : squares;
    t->ndjson = req->ndjson;
    if (q->format == FORMAT_BOARD) {
        t->move_number = malloc(sizeof *t->move_number * squares);
        if (t->move_number == NULL) goto out;
        for (uint32_t i = 0; i < squares; i++) t->move_number[t->result.path[i]] = i + 1;
    }
    api_respond_stream(req, res, t, tour_stream_next, tour_stream_free, req->ndjson);
    t = NULL;
    ok = true;
out:
    if (t != NULL) tour_stream_free(t);
    kt_result_free(&result);
    return ok || api_fail_out_of_memory(req);
}

/* The calibrated model's seconds for the query's tour (core/knight/knight_cost.h), or -1 when the board
 * does not tell them (then the request goes to a worker as it always did, never to the I/O thread as
 * small work: the model is not an upper bound). */
static double tour_estimate_seconds(const tour_query *q) {
    const knight_cost *cost = api_knight_cost();
    if (cost == NULL || !knight_cost_estimated(&q->request)) return -1;
    return knight_cost_seconds(cost, (uint64_t)q->request.rows * (uint64_t)q->request.cols);
}

/* A tour the model says cannot be built in time is refused at once (api/cost_estimates.h). */
static bool check_tour_feasible(api_request *req, const tour_query *q) {
    double estimate = tour_estimate_seconds(q), limit = api_time_limit_seconds(req);
    if (estimate < 0) return true;
    uint64_t fits = knight_cost_largest_squares(api_knight_cost(), limit, req->limits->max_board_squares);
    return api_check_measured_estimate(req, param_present(req, "n") ? "n" : "rows", "rows x cols", "building the tour",
                                       estimate, limit, (int64_t)fits);
}

static bool answer_knight_tour(api_request *req, api_response *res) {
    tour_query q = {.format = FORMAT_PATH};
    kt_result result;
    if (!read_query(req, &q) || !check_tour_feasible(req, &q) ||
        !api_fail_status(req, knight_tour_find(&q.request, &req->deadline, &result)))
        return false;
    switch (result.outcome) {
    case KT_FOUND: return respond_tour(req, res, &q, result);
    case KT_NONE_EXISTS:
        api_open_answer(&res->body, "knight_tour_none");
        write_head(&res->body, &q.request, false);
        jw_str(&res->body, ",\"reason\":");
        jw_cstring(&res->body, result.reason);
        jw_char(&res->body, '}');
        return true;
    case KT_HEURISTIC_FAILED: break;
    }
    return api_fail(req, API_HEURISTIC_FAILED, "algorithm",
                    "Warnsdorff's heuristic got stuck on every attempt from this square, which proves "
                    "nothing; use algorithm 'auto' for an answer");
}

/* The handler's own estimate, from the fields read as the handler reads them (on a copy of the request,
 * whose error, if any, is left for the handler to find again); -1 for fields the handler refuses. */
static double knight_estimate_seconds(const api_request *req) {
    api_request copy = *req;
    tour_query q = {.format = FORMAT_PATH};
    return read_query(&copy, &q) ? tour_estimate_seconds(&q) : -1;
}

const api_endpoint knight_tour_endpoint = {
    .fields = fields, .handler = answer_knight_tour, .estimate_seconds = knight_estimate_seconds};
