/* Integration tests of POST /queens/verify: every column-per-row placement of boards up to 5 x 5 and
 * random partial boards up to 7 x 7 against a brute-force pair check written here; the solver's own
 * answers (/queens lists and the mode "first" construction for n = 1000) accepted, and the same
 * answers with one queen moved at random rejected with the pairs the brute force finds; errors. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

typedef struct square {
    int row, col;
} square;

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static unsigned next_random(unsigned bound) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % bound);
}

static int compare_squares(const void *a, const void *b) {
    const square *x = a, *y = b;
    return x->row != y->row ? x->row - y->row : x->col - y->col;
}

static const char *shared_line(square a, square b) {
    if (a.row == b.row) return "row";
    if (a.col == b.col) return "column";
    if (a.row - a.col == b.row - b.col) return "diagonal";
    if (a.row + a.col == b.row + b.col) return "anti-diagonal";
    return NULL;
}

/* The expected answer, by checking every pair: {"kind","n","valid","queens"[,"problem","attacking_pairs",
 * "attacks"]}. */
static cJSON *brute_force(int n, square *queens, int k) {
    qsort(queens, (size_t)k, sizeof *queens, compare_squares);
    cJSON *expected = cJSON_CreateObject(), *attacks = cJSON_CreateArray();
    cJSON_AddStringToObject(expected, "kind", "queens_verify");
    long pairs = 0;
    for (int i = 0; i < k; i++) {
        for (int j = i + 1; j < k; j++) {
            const char *line = shared_line(queens[i], queens[j]);
            if (line == NULL) continue;
            if (pairs++ >= 100) continue;
            cJSON *attack = cJSON_CreateObject(), *both = cJSON_AddArrayToObject(attack, "queens");
            int a[2] = {queens[i].row, queens[i].col}, b[2] = {queens[j].row, queens[j].col};
            cJSON_AddItemToArray(both, cJSON_CreateIntArray(a, 2));
            cJSON_AddItemToArray(both, cJSON_CreateIntArray(b, 2));
            cJSON_AddStringToObject(attack, "line", line);
            cJSON_AddItemToArray(attacks, attack);
        }
    }
    cJSON_AddNumberToObject(expected, "n", n);
    cJSON_AddBoolToObject(expected, "valid", pairs == 0 && k == n);
    cJSON_AddNumberToObject(expected, "queens", k);
    if (pairs == 0 && k == n) {
        cJSON_Delete(attacks);
        return expected;
    }
    cJSON_AddStringToObject(expected, "problem", pairs > 0 ? "attacks" : "too_few_queens");
    cJSON_AddNumberToObject(expected, "attacking_pairs", (double)pairs);
    cJSON_AddItemToObject(expected, "attacks", attacks);
    return expected;
}

static cJSON *verify(const char *body) { return post_ok("/queens/verify", body); }

static void expect_same(const cJSON *got, const cJSON *expected, const char *request) {
    char *got_text = cJSON_PrintUnformatted(got), *expected_text = cJSON_PrintUnformatted(expected);
    cr_assert_str_eq(got_text, expected_text, "request %.300s", request);
    free(got_text);
    free(expected_text);
}

static char *columns_request(int n, const int *columns) {
    cJSON *request = cJSON_CreateObject();
    cJSON_AddNumberToObject(request, "n", n);
    cJSON_AddItemToObject(request, "queens", cJSON_CreateIntArray(columns, n));
    char *text = cJSON_PrintUnformatted(request);
    cJSON_Delete(request);
    return text;
}

/* Checks the answer for one column per row against the brute force; returns whether it is valid. */
static bool check_columns(int n, const int *columns) {
    square queens[1000];
    for (int r = 0; r < n; r++) queens[r] = (square){r, columns[r]};
    char *request = columns_request(n, columns);
    cJSON *got = verify(request), *expected = brute_force(n, queens, n);
    expect_same(got, expected, request);
    bool valid = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(got, "valid"));
    cJSON_Delete(got);
    cJSON_Delete(expected);
    free(request);
    return valid;
}

Test(queens_verify, every_column_placement_up_to_5_matches_brute_force) {
    int valid[6] = {0};
    for (int n = 1; n <= 5; n++) {
        int total = 1;
        for (int r = 0; r < n; r++) total *= n;
        for (int code = 0; code < total; code++) {
            int columns[5], rest = code;
            for (int r = 0; r < n; r++, rest /= n) columns[r] = rest % n;
            valid[n] += check_columns(n, columns);
        }
    }
    /* OEIS A000170, as a cross-check of the brute force itself */
    cr_assert(valid[1] == 1 && valid[2] == 0 && valid[3] == 0 && valid[4] == 2 && valid[5] == 10);
}

Test(queens_verify, random_partial_boards_match_brute_force) {
    for (int trial = 0; trial < 400; trial++) {
        int n = 1 + (int)next_random(7), k = (int)next_random((unsigned)(n + 3)), placed = 0;
        square queens[16];
        cJSON *request = cJSON_CreateObject(), *list = cJSON_CreateArray();
        cJSON_AddNumberToObject(request, "n", n);
        cJSON_AddItemToObject(request, "queens", list);
        for (int i = 0; i < k && placed < n * n; i++) {
            square s = {(int)next_random((unsigned)n), (int)next_random((unsigned)n)};
            bool taken = false;
            for (int j = 0; j < placed; j++) taken |= queens[j].row == s.row && queens[j].col == s.col;
            if (taken) continue;
            queens[placed++] = s;
            int pair[2] = {s.row, s.col};
            cJSON_AddItemToArray(list, cJSON_CreateIntArray(pair, 2));
        }
        char *text = cJSON_PrintUnformatted(request);
        cJSON *got = verify(text), *expected = brute_force(n, queens, placed);
        expect_same(got, expected, text);
        cJSON_Delete(got);
        cJSON_Delete(expected);
        cJSON_Delete(request);
        free(text);
    }
}

Test(queens_verify, the_solvers_answers_pass_and_fail_once_a_queen_moves) {
    for (int n = 4; n <= 8; n++) {
        char path[64];
        snprintf(path, sizeof path, "/queens?n=%d", n);
        cJSON *listed = get_ok(path);
        const cJSON *solution;
        cJSON_ArrayForEach(solution, cJSON_GetObjectItemCaseSensitive(listed, "solutions")) {
            int columns[8];
            for (int r = 0; r < n; r++) columns[r] = cJSON_GetArrayItem(solution, r)->valueint;
            cr_assert(check_columns(n, columns), "the solver's answer is valid");
            int row = (int)next_random((unsigned)n);
            columns[row] = (columns[row] + 1 + (int)next_random((unsigned)n - 1)) % n;
            cr_assert(!check_columns(n, columns), "a moved queen attacks another");
        }
        cJSON_Delete(listed);
    }
}

Test(queens_verify, the_construction_for_1000_passes_and_fails_once_a_queen_moves) {
    cJSON *first = get_ok("/queens?n=1000&mode=first");
    int columns[1000];
    for (int r = 0; r < 1000; r++)
        columns[r] = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(first, "solution"), r)->valueint;
    cJSON_Delete(first);
    cr_assert(check_columns(1000, columns), "the construction is valid");
    for (int trial = 0; trial < 3; trial++) {
        int row = (int)next_random(1000), old = columns[row];
        columns[row] = (old + 1 + (int)next_random(999)) % 1000;
        cr_assert(!check_columns(1000, columns), "a moved queen attacks another");
        columns[row] = old;
    }
}

Test(queens_verify, malformed_placements_are_4xx_naming_the_field) {
    expect_error_field(http_post("/queens/verify", "{\"queens\":[0]}"), 400, "missing_field", "n");
    expect_error_field(http_post("/queens/verify", "{\"n\":4}"), 400, "missing_field", "queens");
    expect_error_field(http_post("/queens/verify", "{\"n\":0,\"queens\":[]}"), 400, "invalid_field", "n");
    expect_error_field(http_post("/queens/verify", "{\"n\":4,\"queens\":[1,3,0]}"), 400, "invalid_field",
                       "queens"); /* columns: n of them */
    expect_error_field(http_post("/queens/verify", "{\"n\":4,\"queens\":[1,3,0,4]}"), 400, "invalid_field",
                       "queens"); /* off the board */
    expect_error_field(http_post("/queens/verify", "{\"n\":4,\"queens\":[1,3,0,1.5]}"), 400, "invalid_field", "queens");
    expect_error_field(http_post("/queens/verify", "{\"n\":4,\"queens\":[1,[3,0]]}"), 400, "invalid_field",
                       "queens"); /* forms mixed */
    expect_error_field(http_post("/queens/verify", "{\"n\":4,\"queens\":[[0,1],[2]]}"), 400, "invalid_field", "queens");
    expect_error_field(http_post("/queens/verify", "{\"n\":4,\"queens\":[[0,1],[-1,2]]}"), 400, "invalid_field",
                       "queens");
    expect_error_field(http_post("/queens/verify", "{\"n\":4,\"queens\":[[0,1],[2,3],[0,1]]}"), 400, "invalid_field",
                       "queens"); /* one square twice */
    expect_error_field(http_post("/queens/verify", "{\"n\":4,\"queens\":\"0,1\"}"), 400, "invalid_field", "queens");
    expect_error_field(http_post("/queens/verify", "{\"n\":4000000,\"queens\":[]}"), 422, "too_large", "n");
    http_result r = http_get("/queens/verify?n=4&queens=1,3,0,2");
    cr_assert_eq(r.status, 405, "POST only");
    http_result_free(&r);
}

Test(queens_verify, an_empty_board_has_too_few_queens) {
    cJSON *got = verify("{\"n\":1,\"queens\":[]}");
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(got, "valid")));
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(got, "problem")->valuestring, "too_few_queens");
    cJSON_Delete(got);
}
