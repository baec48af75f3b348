/* POST /queens/verify: whether a placement of queens solves the n-queens puzzle. A wrong answer is a
 * 200 with "valid": false, the number of attacking pairs and the first of them located (a 4xx is
 * only for a request that is not a placement on the board).
 *
 * Decisions: `queens` is either one column per row (exactly n integers: that form cannot leave a row
 * empty) or a list of [row, col] squares, which may hold fewer queens than n (a board in progress) or
 * more; an empty list is a board with no queen. Two queens on one square, or a square off the board,
 * is a 400: it is not a placement. n above --max-queens-n is a 422 too_large, as for mode "first".
 * The attacks listed are the first MAX_LISTED_ATTACKS pairs in row-major order; `attacking_pairs`
 * counts them all. */
#include <inttypes.h>
#include <stdlib.h>

#include "api/boards/board_squares.h"
#include "api/endpoints.h"
#include "api/params.h"
#include "core/queens/queens_verify.h"

#define MAX_LISTED_ATTACKS 100

static const api_field fields[] = {{"n", FIELD_INTEGER}, {"queens", FIELD_ARRAY}, {NULL, 0}};

static bool read_n(api_request *req, uint32_t *n) {
    int64_t value, largest = (int64_t)req->limits->max_queens_n;
    if (param_present(req, "n") && param_int(req, "n", INT64_MIN, INT64_MAX, 0, &value) && value > largest) {
        api_fail(req, API_TOO_LARGE, "n", "n must be from 1 to %" PRId64 " (--max-queens-n); got %" PRId64, largest,
                 value);
        return api_fail_range(req, 1, largest, value);
    }
    if (!param_int_required(req, "n", 1, largest, &value)) return false;
    *n = (uint32_t)value;
    return true;
}

/* The placement as squares, in either form. */
static bool read_queens(api_request *req, uint32_t n, queens_square **out, size_t *count) {
    const cJSON *list = param_array(req, "queens");
    if (list == NULL)
        return api_fail(req, API_MISSING_FIELD, "queens",
                        "'queens' is required: one column per row ([0, 4, 7, 5, 2, 6, 1, 3]) or a list of "
                        "[row, col] squares");
    int size = cJSON_GetArraySize(list);
    if (size == 0 || !cJSON_IsNumber(list->child)) return board_queens_read(req, "queens", list, n, out, count);
    if ((uint32_t)size != n)
        return api_fail(req, API_INVALID_FIELD, "queens",
                        "'queens' as one column per row needs exactly n = %" PRIu32 " columns, got %d; a board "
                        "with fewer queens is a list of [row, col] squares",
                        n, size);
    bool ok = false;
    queens_square *queens = malloc((size_t)size * sizeof *queens);
    if (queens == NULL) {
        api_fail_out_of_memory(req);
        goto out;
    }
    int row = 0;
    for (const cJSON *item = list->child; item != NULL; item = item->next, row++) {
        queens[row].row = (uint32_t)row;
        if (!board_index_read(req, "queens", row, item, n, "a column (one per row, as the first element)",
                              &queens[row].col))
            goto out;
    }
    *out = queens; /* already in row-major order, one per row */
    *count = (size_t)size;
    queens = NULL;
    ok = true;
out:
    free(queens);
    return ok;
}

static void write_attacks(json_writer *out, const queens_attack *attacks, size_t listed) {
    jw_str(out, ",\"attacks\":[");
    for (size_t i = 0; i < listed; i++) {
        if (i > 0) jw_char(out, ',');
        board_attack_write(out, &attacks[i]);
    }
    jw_char(out, ']');
}

static bool answer_queens_verify(api_request *req, api_response *res) {
    uint32_t n = 0;
    queens_square *queens = NULL;
    size_t count = 0;
    if (!read_n(req, &n) || !read_queens(req, n, &queens, &count)) return false;
    queens_attack attacks[MAX_LISTED_ATTACKS];
    size_t listed;
    uint64_t pairs;
    bool ok = false;
    if (!api_fail_status(req, queens_find_attacks(n, queens, count, attacks, MAX_LISTED_ATTACKS, &listed, &pairs)))
        goto out;
    json_writer *body = &res->body;
    api_open_answer(body, "queens_verify");
    jw_str(body, "\"n\":");
    jw_uint(body, n);
    jw_str(body, ",\"valid\":");
    jw_str(body, pairs == 0 && count == n ? "true" : "false");
    jw_str(body, ",\"queens\":");
    jw_uint(body, count);
    if (pairs > 0 || count != n) {
        jw_str(body, pairs > 0 ? ",\"problem\":\"attacks\"" : ",\"problem\":\"too_few_queens\"");
        jw_str(body, ",\"attacking_pairs\":");
        jw_uint(body, pairs);
        write_attacks(body, attacks, listed);
    }
    jw_char(body, '}');
    ok = true;
out:
    free(queens);
    return ok;
}

const api_endpoint queens_verify_endpoint = {.fields = fields, .handler = answer_queens_verify};
