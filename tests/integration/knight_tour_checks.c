/* The /knight-tour checks of knight_tour_checks.h, written apart from core/knight/. */
#include "knight_tour_checks.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool knight_move(long r1, long c1, long r2, long c2) {
    long dr = labs(r1 - r2), dc = labs(c1 - c2);
    return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
}

void expect_valid_tour(const long *squares, long count, long rows, long cols, long sr, long sc, bool closed) {
    long n = rows * cols;
    unsigned char *seen = calloc((size_t)n, 1);
    cr_assert_not_null(seen);
    for (long i = 0; i < count; i++) {
        long r = squares[2 * i], c = squares[2 * i + 1];
        cr_assert(r >= 0 && r < rows && c >= 0 && c < cols, "square [%ld,%ld] off the board", r, c);
        cr_assert(!seen[r * cols + c], "square [%ld,%ld] visited twice", r, c);
        seen[r * cols + c] = 1;
        if (i > 0)
            cr_assert(knight_move(squares[2 * i - 2], squares[2 * i - 1], r, c),
                      "[%ld,%ld] -> [%ld,%ld] is not a knight move", squares[2 * i - 2], squares[2 * i - 1], r, c);
    }
    free(seen);
    cr_assert_eq(count, n, "%ld squares, expected %ld", count, n);
    cr_assert(squares[0] == sr && squares[1] == sc, "starts at [%ld,%ld], expected [%ld,%ld]", squares[0], squares[1],
              sr, sc);
    if (closed)
        cr_assert(knight_move(squares[2 * n - 2], squares[2 * n - 1], sr, sc),
                  "closed tour does not return to its start");
}

void expect_valid_path(const char *body, long rows, long cols, long sr, long sc, bool closed) {
    const char *p = strstr(body, "\"path\":[");
    cr_assert_not_null(p, "no path in %.200s", body);
    p += strlen("\"path\":[");
    long n = rows * cols, count = 0;
    long *squares = malloc(2 * (size_t)n * sizeof *squares);
    cr_assert_not_null(squares);
    while (*p == '[') {
        char *end;
        long r = strtol(p + 1, &end, 10);
        cr_assert_eq(*end, ',');
        long c = strtol(end + 1, &end, 10);
        cr_assert_eq(*end, ']');
        p = end + 1;
        cr_assert_lt(count, n, "more than %ld squares", n);
        squares[2 * count] = r, squares[2 * count + 1] = c, count++;
        if (*p == ',') p++;
    }
    cr_assert_eq(*p, ']');
    expect_valid_tour(squares, count, rows, cols, sr, sc, closed);
    free(squares);
}

http_result get_tour(int rows, int cols, int r, int c, bool closed, const char *extra) {
    char path[256];
    snprintf(path, sizeof path, "/knight-tour?rows=%d&cols=%d&start=%d,%d&closed=%s%s", rows, cols, r, c,
             closed ? "true" : "false", extra);
    return http_get(path);
}

bool tour_found(const http_result *res) { return strstr(res->body, "\"found\":true") != NULL; }

void check_large(int rows, int cols, int r, int c, bool closed) {
    http_result res = get_tour(rows, cols, r, c, closed, "");
    cr_assert_eq(res.status, 200, "%dx%d: %ld %.300s", rows, cols, res.status, res.body);
    cr_assert(tour_found(&res), "%dx%d [%d,%d] %s: %.300s", rows, cols, r, c, closed ? "closed" : "open", res.body);
    expect_valid_path(res.body, rows, cols, r, c, closed);
    http_result_free(&res);
}
