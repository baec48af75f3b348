/* Integration tests of /queens with format=svg (api/queens/queens_svg.c): every drawing is well-formed XML
 * (xmllint), has one queen per row exactly where the JSON answer to the same request puts them, read
 * back from the drawing's own geometry, and the queens drawn do not attack each other (checked here
 * from the definition); the queens of `placed` are told apart; the fields that cannot draw are named. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "svg_checks.h"

enum { MOST_ROWS = 200 };

typedef struct drawn_queens {
    long col[MOST_ROWS];   /* the column of each row's queen */
    bool given[MOST_ROWS]; /* drawn black: a queen of `placed` */
} drawn_queens;

/* Reads every <use href="#queen"> of `svg`, asserting one queen a row on an n x n board. */
static drawn_queens read_queens(const char *svg, long n) {
    cr_assert_leq(n, MOST_ROWS);
    drawn_board board = read_drawn_board(svg, n, n);
    drawn_queens queens;
    for (long r = 0; r < n; r++) queens.col[r] = -1;
    long count = 0;
    for (const char *p = svg; (p = strstr(p, "<use href=\"#queen\"")) != NULL; p++, count++) {
        long row, col;
        drawn_square_at(&board, svg_attribute(p, "x"), svg_attribute(p, "y"), false, &row, &col);
        cr_assert_eq(queens.col[row], -1, "two queens drawn in row %ld", row);
        queens.col[row] = col;
        queens.given[row] = strncmp(strstr(p, "fill=\""), "fill=\"black\"", 12) == 0;
    }
    cr_assert_eq(count, n, "%ld queens drawn on a %ldx%ld board", count, n, n);
    return queens;
}

/* No two queens share a column or a diagonal (rows are distinct by construction). */
static void expect_no_attacks(const drawn_queens *queens, long n) {
    for (long a = 0; a < n; a++)
        for (long b = a + 1; b < n; b++) {
            long dc = labs(queens->col[a] - queens->col[b]);
            cr_assert(dc != 0 && dc != b - a, "queens in rows %ld and %ld attack each other", a, b);
        }
}

static void expect_drawn(const drawn_queens *queens, const cJSON *columns, long n) {
    cr_assert_eq(cJSON_GetArraySize(columns), n);
    for (long r = 0; r < n; r++)
        cr_assert_eq(queens->col[r], (long)cJSON_GetArrayItem(columns, (int)r)->valuedouble, "row %ld", r);
}

Test(queens_svg, first_draws_the_constructed_solution) {
    static const long sizes[] = {1, 4, 5, 6, 8, 9, 13, 14, 15, 50, 199, 200};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        long n = sizes[i];
        char path[96];
        snprintf(path, sizeof path, "/queens?n=%ld&mode=first", n);
        cJSON *doc = get_ok(path);
        strcat(path, "&format=svg");
        http_result drawn = http_get(path);
        expect_svg_answer(&drawn);
        drawn_queens queens = read_queens(drawn.body, n);
        expect_no_attacks(&queens, n);
        expect_drawn(&queens, cJSON_GetObjectItemCaseSensitive(doc, "solution"), n);
        for (long r = 0; r < n; r++) cr_assert_not(queens.given[r]);
        http_result_free(&drawn);
        cJSON_Delete(doc);
    }
}

Test(queens_svg, a_window_of_one_draws_that_solution) {
    const char *lists[] = {"n=6", "n=8", "n=8&unique=true", "n=10&algorithm=backtracking"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "/queens?%s", lists[i]);
        cJSON *all = get_ok(path);
        const cJSON *solutions = cJSON_GetObjectItemCaseSensitive(all, "solutions");
        long n = (long)cJSON_GetObjectItemCaseSensitive(all, "n")->valuedouble;
        int count = cJSON_GetArraySize(solutions);
        for (int offset = 0; offset<count; offset += count> 12 ? 7 : 1) {
            /* limit is 1 by default with svg; also given explicitly */
            snprintf(path, sizeof path, "/queens?%s&offset=%d&format=svg%s", lists[i], offset,
                     offset % 2 ? "&limit=1" : "");
            http_result drawn = http_get(path);
            expect_svg_answer(&drawn);
            drawn_queens queens = read_queens(drawn.body, n);
            expect_no_attacks(&queens, n);
            expect_drawn(&queens, cJSON_GetArrayItem(solutions, offset), n);
            http_result_free(&drawn);
        }
        cJSON_Delete(all);
    }
}

Test(queens_svg, placed_queens_are_drawn_apart_from_the_ones_found) {
    const char *requests[] = {
        "{\"n\":8,\"placed\":[[0,0],[1,4]],\"format\":\"svg\"}",
        "{\"n\":8,\"mode\":\"first\",\"placed\":[[3,3]],\"format\":\"svg\"}",
        "{\"n\":40,\"mode\":\"first\",\"placed\":[[0,5],[20,17],[39,30]],\"format\":\"svg\"}",
    };
    for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
        cJSON *request = cJSON_Parse(requests[i]);
        long n = (long)cJSON_GetObjectItemCaseSensitive(request, "n")->valuedouble;
        const cJSON *placed = cJSON_GetObjectItemCaseSensitive(request, "placed");
        http_result drawn = http_post("/queens", requests[i]);
        expect_svg_answer(&drawn);
        drawn_queens queens = read_queens(drawn.body, n);
        expect_no_attacks(&queens, n);
        bool given[MOST_ROWS] = {false};
        for (const cJSON *square = placed->child; square != NULL; square = square->next) {
            long row = (long)square->child->valuedouble, col = (long)square->child->next->valuedouble;
            cr_assert_eq(queens.col[row], col, "placed queen [%ld,%ld] not kept", row, col);
            given[row] = true;
        }
        for (long r = 0; r < n; r++) cr_assert_eq(queens.given[r], given[r], "row %ld drawn as the wrong kind", r);
        /* the same request as JSON puts the queens on the same squares */
        cJSON_DeleteItemFromObject(request, "format");
        char *json_request = cJSON_PrintUnformatted(request);
        cJSON *doc = post_ok("/queens", json_request);
        const cJSON *solution = cJSON_GetObjectItemCaseSensitive(doc, "solution");
        expect_drawn(&queens,
                     solution ? solution : cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "solutions"), 0),
                     n);
        cJSON_Delete(doc);
        free(json_request);
        http_result_free(&drawn);
        cJSON_Delete(request);
    }
}

Test(queens_svg, nothing_to_draw_answers_the_json) {
    const char *paths[] = {"/queens?n=3&mode=first&format=svg", "/queens?n=6&offset=4&format=svg"};
    for (size_t i = 0; i < 2; i++) {
        http_result r = http_get(paths[i]);
        cr_assert_eq(r.status, 200);
        char *type = http_header(&r, "Content-Type");
        cr_assert_str_eq(type, "application/json");
        cr_assert_not_null(strstr(r.body, "\"found\":false"), "%s: %s", paths[i], r.body);
        free(type);
        http_result_free(&r);
    }
    http_result conflict =
        http_post("/queens", "{\"n\":8,\"mode\":\"first\",\"placed\":[[0,0],[1,1]],\"format\":\"svg\"}");
    cr_assert_eq(conflict.status, 200);
    cr_assert_not_null(strstr(conflict.body, "\"conflict\""), "%s", conflict.body);
    http_result_free(&conflict);
}

Test(queens_svg, what_cannot_be_drawn_is_refused_naming_the_field) {
    http_result r = http_get("/queens?n=8&mode=count&format=svg");
    expect_error_field(r, 400, "conflicting_fields", "format");
    r = http_get("/queens?n=8&limit=2&format=svg");
    expect_error_field(r, 400, "conflicting_fields", "limit");
    r = http_get("/queens?n=8&limit=0&format=svg");
    expect_error_field(r, 400, "conflicting_fields", "limit");
    r = http_get("/queens?n=201&mode=first&format=svg");
    expect_error_field(r, 422, "too_large", "format");
    r = http_get("/queens?n=8&format=png");
    expect_error_field(r, 400, "invalid_field", "format");
}

Test(queens_svg, drawings_are_cached_like_other_answers) {
    http_result first = http_get("/queens?n=8&mode=first&format=svg");
    char *etag = http_header(&first, "ETag");
    cr_assert_not_null(etag);
    char condition[160];
    snprintf(condition, sizeof condition, "If-None-Match: %s", etag);
    const char *headers[] = {condition, NULL};
    http_result again = http_request(server_url(), "GET", "/queens?n=8&mode=first&format=svg", NULL, headers);
    cr_assert_eq(again.status, 304);
    /* the JSON answer to the same board is another resource */
    http_result json = http_request(server_url(), "GET", "/queens?n=8&mode=first", NULL, headers);
    cr_assert_eq(json.status, 200);
    free(etag);
    http_result_free(&first);
    http_result_free(&again);
    http_result_free(&json);
}
