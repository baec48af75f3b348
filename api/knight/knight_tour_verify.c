/* POST /knight-tour/verify: whether a path is a knight's tour of a rows x cols board (closed when
 * asked). A wrong tour is a 200 with "valid": false and its first problem located: the first step
 * that is not a knight's move, the first square visited twice, the first square never visited (in
 * row-major order), or the open end of a tour claimed closed. A 4xx is only for a request that is not
 * a path on the board (a square off it, a board over --max-board-squares).
 *
 * Decisions: the path is checked in order, so a path that goes wrong early is reported there even if
 * it also misses squares; a repeated square is reported at its second visit; an empty path misses
 * every square. */
#include <stdlib.h>

#include "api/boards/board_squares.h"
#include "api/endpoints.h"
#include "api/params.h"
#include "core/knight/knight_tour_verify.h"

static const api_field fields[] = {
    {"rows", FIELD_INTEGER}, {"cols", FIELD_INTEGER}, {"path", FIELD_ARRAY}, {"closed", FIELD_BOOLEAN}, {NULL, 0},
};

typedef struct claimed_tour {
    uint32_t rows, cols;
    bool closed;
    uint32_t *path; /* row * cols + col */
    size_t length;
} claimed_tour;

static bool read_board(api_request *req, claimed_tour *tour) {
    int64_t max_side = (int64_t)req->limits->max_board_squares, rows, cols;
    if (max_side > INT32_MAX) max_side = INT32_MAX;
    if (!param_int_required(req, "rows", 1, max_side, &rows) || !param_int_required(req, "cols", 1, max_side, &cols))
        return false;
    tour->closed = param_flag(req, "closed", false);
    uint64_t squares = (uint64_t)rows * (uint64_t)cols;
    if (squares > req->limits->max_board_squares) {
        api_fail(req, API_TOO_LARGE, "rows", "the board has %llu squares; at most %llu are allowed",
                 (unsigned long long)squares, (unsigned long long)req->limits->max_board_squares);
        return api_fail_range(req, 1, (long long)req->limits->max_board_squares, (long long)squares);
    }
    tour->rows = (uint32_t)rows;
    tour->cols = (uint32_t)cols;
    return true;
}

static bool read_path(api_request *req, claimed_tour *tour) {
    const cJSON *list = param_array(req, "path");
    if (list == NULL)
        return api_fail(req, API_MISSING_FIELD, "path",
                        "'path' is required: the squares of the tour in order, "
                        "each [row, col]");
    size_t size = (size_t)cJSON_GetArraySize(list);
    tour->path = malloc((size ? size : 1) * sizeof *tour->path);
    if (tour->path == NULL) return api_fail_out_of_memory(req);
    int index = 0;
    for (const cJSON *item = list->child; item != NULL; item = item->next, index++) {
        uint32_t row, col;
        if (!board_square_read(req, "path", index, item, tour->rows, tour->cols, &row, &col)) return false;
        tour->path[index] = row * tour->cols + col;
    }
    tour->length = size;
    return true;
}

static void write_square(json_writer *out, const char *key, const claimed_tour *tour, uint32_t square) {
    jw_char(out, ',');
    jw_key(out, key);
    board_square_write(out, square / tour->cols, square % tour->cols);
}

static void write_problem(json_writer *out, const claimed_tour *tour, const kt_verdict *verdict) {
    switch (verdict->problem) {
    case KT_PROBLEM_NONE: return;
    case KT_PROBLEM_NOT_A_MOVE:
        jw_str(out, ",\"problem\":\"not_a_knight_move\",\"step\":");
        jw_uint(out, verdict->step);
        write_square(out, "from", tour, tour->path[verdict->step - 1]);
        write_square(out, "to", tour, tour->path[verdict->step]);
        return;
    case KT_PROBLEM_REPEATED_SQUARE:
        jw_str(out, ",\"problem\":\"repeated_square\",\"step\":");
        jw_uint(out, verdict->step);
        write_square(out, "square", tour, tour->path[verdict->step]);
        jw_str(out, ",\"first_visit\":");
        jw_uint(out, verdict->first_visit);
        return;
    case KT_PROBLEM_MISSING_SQUARE:
        jw_str(out, ",\"problem\":\"missing_square\"");
        write_square(out, "square", tour, verdict->square);
        jw_str(out, ",\"missing\":");
        jw_uint(out, verdict->missing);
        return;
    case KT_PROBLEM_NOT_CLOSED:
        jw_str(out, ",\"problem\":\"not_closed\"");
        write_square(out, "from", tour, tour->path[tour->length - 1]);
        write_square(out, "to", tour, tour->path[0]);
        return;
    }
}

static bool answer_knight_tour_verify(api_request *req, api_response *res) {
    claimed_tour tour = {0};
    kt_verdict verdict;
    bool ok = false;
    if (!read_board(req, &tour) || !read_path(req, &tour) ||
        !api_fail_status(req, knight_tour_verify(tour.rows, tour.cols, tour.closed, tour.path, tour.length, &verdict)))
        goto out;
    json_writer *body = &res->body;
    api_open_answer(body, "knight_tour_verify");
    jw_str(body, "\"rows\":");
    jw_uint(body, tour.rows);
    jw_str(body, ",\"cols\":");
    jw_uint(body, tour.cols);
    jw_str(body, tour.closed ? ",\"closed\":true" : ",\"closed\":false");
    jw_str(body, verdict.problem == KT_PROBLEM_NONE ? ",\"valid\":true" : ",\"valid\":false");
    write_problem(body, &tour, &verdict);
    jw_char(body, '}');
    ok = true;
out:
    free(tour.path);
    return ok;
}

const api_endpoint knight_tour_verify_endpoint = {.fields = fields, .handler = answer_knight_tour_verify};
