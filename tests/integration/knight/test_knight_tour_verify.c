/* Integration tests of POST /knight-tour/verify: every open tour of 3 x 4 and 3 x 7 found by a search
 * written here accepted; random paths (knight walks with random jumps, repeats and early ends) on
 * boards up to 5 x 5 judged as a plain reference check written here judges them; the solver's own
 * tours (open and closed, up to 30 x 30) accepted, and rejected at the right place once corrupted at
 * random (a square swapped, dropped, repeated or replaced, the closing move broken); errors. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { MAX_SQUARES = 900 };

typedef struct board_path {
    int rows, cols;
    bool closed;
    int length;
    int square[2 * MAX_SQUARES]; /* row * cols + col */
} board_path;

static uint64_t rng_state = 0x2545F4914F6CDD1Du;
static unsigned next_random(unsigned bound) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % bound);
}

static bool knight_move(const board_path *p, int a, int b) {
    int dr = abs(a / p->cols - b / p->cols), dc = abs(a % p->cols - b % p->cols);
    return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
}

static cJSON *square_json(const board_path *p, int square) {
    int pair[2] = {square / p->cols, square % p->cols};
    return cJSON_CreateIntArray(pair, 2);
}

/* The expected answer, by the definition and quadratic loops. */
static cJSON *reference(const board_path *p) {
    cJSON *expected = cJSON_CreateObject();
    cJSON_AddStringToObject(expected, "kind", "knight_tour_verify");
    cJSON_AddNumberToObject(expected, "rows", p->rows);
    cJSON_AddNumberToObject(expected, "cols", p->cols);
    cJSON_AddBoolToObject(expected, "closed", p->closed);
    for (int i = 0; i < p->length; i++) {
        if (i > 0 && !knight_move(p, p->square[i - 1], p->square[i])) {
            cJSON_AddFalseToObject(expected, "valid");
            cJSON_AddStringToObject(expected, "problem", "not_a_knight_move");
            cJSON_AddNumberToObject(expected, "step", i);
            cJSON_AddItemToObject(expected, "from", square_json(p, p->square[i - 1]));
            cJSON_AddItemToObject(expected, "to", square_json(p, p->square[i]));
            return expected;
        }
        for (int j = 0; j < i; j++) {
            if (p->square[j] != p->square[i]) continue;
            cJSON_AddFalseToObject(expected, "valid");
            cJSON_AddStringToObject(expected, "problem", "repeated_square");
            cJSON_AddNumberToObject(expected, "step", i);
            cJSON_AddItemToObject(expected, "square", square_json(p, p->square[i]));
            cJSON_AddNumberToObject(expected, "first_visit", j);
            return expected;
        }
    }
    int squares = p->rows * p->cols;
    for (int s = 0; s < squares; s++) {
        bool visited = false;
        for (int i = 0; i < p->length; i++) visited |= p->square[i] == s;
        if (visited) continue;
        cJSON_AddFalseToObject(expected, "valid");
        cJSON_AddStringToObject(expected, "problem", "missing_square");
        cJSON_AddItemToObject(expected, "square", square_json(p, s));
        cJSON_AddNumberToObject(expected, "missing", squares - p->length);
        return expected;
    }
    if (p->closed && !knight_move(p, p->square[p->length - 1], p->square[0])) {
        cJSON_AddFalseToObject(expected, "valid");
        cJSON_AddStringToObject(expected, "problem", "not_closed");
        cJSON_AddItemToObject(expected, "from", square_json(p, p->square[p->length - 1]));
        cJSON_AddItemToObject(expected, "to", square_json(p, p->square[0]));
        return expected;
    }
    cJSON_AddTrueToObject(expected, "valid");
    return expected;
}

/* Checks the service against the reference; returns whether the path was valid. */
static bool check(const board_path *p) {
    cJSON *request = cJSON_CreateObject(), *path = cJSON_AddArrayToObject(request, "path");
    cJSON_AddNumberToObject(request, "rows", p->rows);
    cJSON_AddNumberToObject(request, "cols", p->cols);
    cJSON_AddBoolToObject(request, "closed", p->closed);
    for (int i = 0; i < p->length; i++) cJSON_AddItemToArray(path, square_json(p, p->square[i]));
    char *body = cJSON_PrintUnformatted(request);
    cJSON *got = post_ok("/knight-tour/verify", body), *expected = reference(p);
    char *got_text = cJSON_PrintUnformatted(got), *expected_text = cJSON_PrintUnformatted(expected);
    cr_assert_str_eq(got_text, expected_text, "request %.300s", body);
    bool valid = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(got, "valid"));
    free(got_text);
    free(expected_text);
    free(body);
    cJSON_Delete(got);
    cJSON_Delete(expected);
    cJSON_Delete(request);
    return valid;
}

/* Every open tour from every square, by plain depth-first search; checks each (bounded by `budget`). */
static void every_tour(board_path *p, bool *used, int *budget, int *tours) {
    int squares = p->rows * p->cols;
    if (p->length == squares) {
        (*tours)++;
        if ((*budget)-- > 0) cr_assert(check(p), "a tour found by search");
        return;
    }
    for (int s = 0; s < squares; s++) {
        if (used[s] || (p->length > 0 && !knight_move(p, p->square[p->length - 1], s))) continue;
        used[s] = true;
        p->square[p->length++] = s;
        every_tour(p, used, budget, tours);
        p->length--;
        used[s] = false;
    }
}

Test(knight_tour_verify, every_open_tour_of_small_boards_is_valid) {
    int sizes[][2] = {{3, 4}, {3, 7}};
    for (int i = 0; i < 2; i++) {
        board_path p = {.rows = sizes[i][0], .cols = sizes[i][1]};
        bool used[MAX_SQUARES] = {false};
        int budget = 200, tours = 0;
        every_tour(&p, used, &budget, &tours);
        cr_assert_gt(tours, 0);
    }
}

Test(knight_tour_verify, random_paths_match_the_reference) {
    int valid = 0;
    for (int trial = 0; trial < 1500; trial++) {
        board_path p = {
            .rows = 1 + (int)next_random(5), .cols = 1 + (int)next_random(5), .closed = next_random(2) == 1};
        int squares = p.rows * p.cols, length = 1 + (int)next_random((unsigned)squares + 2);
        int at = (int)next_random((unsigned)squares);
        for (p.length = 0; p.length < length; p.length++) {
            p.square[p.length] = at;
            int moves[8], count = 0;
            for (int s = 0; s < squares; s++) {
                bool seen = false;
                for (int i = 0; i <= p.length; i++) seen |= p.square[i] == s;
                if (knight_move(&p, at, s) && (!seen || next_random(8) == 0) && count < 8) moves[count++] = s;
            }
            at = count > 0 && next_random(10) > 0 ? moves[next_random((unsigned)count)]
                                                  : (int)next_random((unsigned)squares);
        }
        valid += check(&p);
    }
    cr_assert_gt(valid, 0, "some random walks are tours (1 x 1 at least)");
}

static void load_tour(board_path *p, int rows, int cols, bool closed) {
    char query[96];
    snprintf(query, sizeof query, "/knight-tour?rows=%d&cols=%d&closed=%s", rows, cols, closed ? "true" : "false");
    cJSON *doc = get_ok(query);
    *p = (board_path){.rows = rows, .cols = cols, .closed = closed};
    const cJSON *square;
    cJSON_ArrayForEach(square, cJSON_GetObjectItemCaseSensitive(doc, "path")) {
        p->square[p->length++] =
            cJSON_GetArrayItem(square, 0)->valueint * cols + cJSON_GetArrayItem(square, 1)->valueint;
    }
    cJSON_Delete(doc);
}

Test(knight_tour_verify, the_solvers_tours_pass_and_fail_where_corrupted) {
    int boards[][3] = {{5, 5, 0}, {3, 4, 0}, {6, 6, 1}, {5, 6, 1}, {8, 8, 0}, {8, 8, 1}, {7, 9, 0}, {30, 30, 1}};
    for (int b = 0; b < 8; b++) {
        board_path tour;
        load_tour(&tour, boards[b][0], boards[b][1], boards[b][2]);
        cr_assert(check(&tour), "the solver's tour of %d x %d", tour.rows, tour.cols);
        for (int kind = 0; kind < 5; kind++) {
            board_path p = tour;
            int i = (int)next_random((unsigned)p.length), j = (int)next_random((unsigned)p.length);
            switch (kind) {
            case 0: p.square[i] = tour.square[j], p.square[j] = tour.square[i]; break; /* swapped */
            case 1:
                memmove(&p.square[i], &p.square[i + 1], sizeof(int) * (size_t)(p.length - i - 1)), p.length--;
                break;
            case 2: p.square[p.length++] = p.square[i]; break;                          /* repeated */
            case 3: p.square[i] = (int)next_random((unsigned)(p.rows * p.cols)); break; /* replaced */
            default: p.closed = true; break; /* an open tour claimed closed: often not */
            }
            check(&p);
        }
    }
}

Test(knight_tour_verify, malformed_paths_are_4xx_naming_the_field) {
    expect_error_field(http_post("/knight-tour/verify", "{\"cols\":4,\"path\":[]}"), 400, "missing_field", "rows");
    expect_error_field(http_post("/knight-tour/verify", "{\"rows\":3,\"cols\":4}"), 400, "missing_field", "path");
    expect_error_field(http_post("/knight-tour/verify", "{\"rows\":3,\"cols\":0,\"path\":[]}"), 400, "invalid_field",
                       "cols");
    expect_error_field(http_post("/knight-tour/verify", "{\"rows\":3,\"cols\":4,\"path\":[[0,0],[1,4]]}"), 400,
                       "invalid_field", "path");
    expect_error_field(http_post("/knight-tour/verify", "{\"rows\":3,\"cols\":4,\"path\":[[0,0],[3,1]]}"), 400,
                       "invalid_field", "path");
    expect_error_field(http_post("/knight-tour/verify", "{\"rows\":3,\"cols\":4,\"path\":[[0,0],5]}"), 400,
                       "invalid_field", "path");
    expect_error_field(http_post("/knight-tour/verify", "{\"rows\":3,\"cols\":4,\"path\":[[0,0,1]]}"), 400,
                       "invalid_field", "path");
    expect_error_field(http_post("/knight-tour/verify", "{\"rows\":3,\"cols\":4,\"path\":[[0,0]],\"closed\":\"yes\"}"),
                       400, "invalid_field", "closed");
    expect_error_field(http_post("/knight-tour/verify", "{\"rows\":3000,\"cols\":3000,\"path\":[]}"), 422, "too_large",
                       "rows");
}
