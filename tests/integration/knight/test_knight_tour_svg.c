/* Integration tests of /knight-tour with format=svg (api/knight/knight_tour_svg.c): every drawing is
 * well-formed XML (xmllint); the path drawn, read back as squares from the <polyline> through the
 * drawing's own geometry, is a valid tour from the start asked for (the validator shared with the
 * JSON tests), and is the JSON answer's path; the start and end marks, the closing move and the
 * move numbers sit on the right squares; boards too large to draw are named. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "knight_tour_checks.h"
#include "svg_checks.h"

typedef struct tour_case {
    int rows, cols, start_row, start_col;
    bool closed;
} tour_case;

/* The squares of the <polyline> of `svg`, [row, col] alternating; *count of them. */
static long *read_path(const char *svg, const drawn_board *board, long *count) {
    const char *p = strstr(svg, "<polyline ");
    cr_assert_not_null(p, "no polyline");
    cr_assert_eq(occurrences(svg, "<polyline "), 1);
    p = strstr(p, " points=\"");
    cr_assert_not_null(p);
    p += strlen(" points=\"");
    long most = board->rows * board->cols;
    long *squares = malloc(2 * (size_t)most * sizeof *squares);
    cr_assert_not_null(squares);
    *count = 0;
    while (*p != '"') {
        char *end;
        double x = strtod(p, &end);
        cr_assert_eq(*end, ',', "%.40s", p);
        double y = strtod(end + 1, &end);
        cr_assert(*end == ' ' || *end == '"', "%.40s", end);
        cr_assert_lt(*count, most, "more points than squares");
        drawn_square_at(board, x, y, true, &squares[2 * *count], &squares[2 * *count + 1]);
        ++*count;
        p = *end == ' ' ? end + 1 : end;
    }
    return squares;
}

/* Asserts that the element starting with `tag` is drawn centred on square [row, col]. */
static void expect_mark(const char *svg, const drawn_board *board, const char *tag, long row, long col) {
    const char *mark = strstr(svg, tag);
    cr_assert_not_null(mark, "no %s", tag);
    long r, c;
    drawn_square_at(board, svg_attribute(mark, "cx"), svg_attribute(mark, "cy"), true, &r, &c);
    cr_assert(r == row && c == col, "%s on [%ld,%ld], expected [%ld,%ld]", tag, r, c, row, col);
}

/* The numbers drawn on small boards: move k in the square the path visits k-th. */
static void expect_numbers(const char *svg, const drawn_board *board, const long *squares, long count) {
    const char *p = strstr(svg, "<g font-family");
    if (count > 256) {
        cr_assert_null(p, "numbers drawn on a board of %ld squares", count);
        return;
    }
    cr_assert_not_null(p, "no numbers on a board of %ld squares", count);
    cr_assert_eq(occurrences(p, "<text "), count);
    for (; (p = strstr(p, "<text ")) != NULL; p++) {
        long move = strtol(strchr(p, '>') + 1, NULL, 10);
        cr_assert(move >= 1 && move <= count);
        /* the number sits in its square's top-left corner */
        double x = svg_attribute(p, "x"), y = svg_attribute(p, "y");
        long col = (long)((x - board->x) / board->square), row = (long)((y - board->y) / board->square);
        cr_assert(row == squares[2 * move - 2] && col == squares[2 * move - 1], "number %ld in [%ld,%ld]", move, row,
                  col);
    }
}

static void expect_drawn_tour(const tour_case *t) {
    char query[160];
    snprintf(query, sizeof query, "/knight-tour?rows=%d&cols=%d&start=%d,%d&closed=%s", t->rows, t->cols, t->start_row,
             t->start_col, t->closed ? "true" : "false");
    http_result json = http_get(query);
    cr_assert_eq(json.status, 200);
    strcat(query, "&format=svg");
    http_result drawn = http_get(query);
    expect_svg_answer(&drawn);
    drawn_board board = read_drawn_board(drawn.body, t->rows, t->cols);
    long count;
    long *squares = read_path(drawn.body, &board, &count);
    expect_valid_tour(squares, count, t->rows, t->cols, t->start_row, t->start_col, t->closed);
    /* the same squares as the JSON path, in order */
    char *text = malloc((size_t)count * 16 + 32), *at = text;
    at += sprintf(at, "\"path\":[");
    for (long i = 0; i < count; i++) at += sprintf(at, "%s[%ld,%ld]", i ? "," : "", squares[2 * i], squares[2 * i + 1]);
    strcpy(at, "]}");
    cr_assert_not_null(strstr(json.body, text), "%dx%d: the drawn path is not the JSON path", t->rows, t->cols);
    expect_mark(drawn.body, &board, "<circle class=\"start\"", squares[0], squares[1]);
    expect_mark(drawn.body, &board, "<circle class=\"end\"", squares[2 * count - 2], squares[2 * count - 1]);
    const char *closing = strstr(drawn.body, "<line class=\"closing\"");
    cr_assert_eq(closing != NULL, t->closed && count > 1);
    if (closing != NULL) {
        long r1, c1, r2, c2;
        drawn_square_at(&board, svg_attribute(closing, "x1"), svg_attribute(closing, "y1"), true, &r1, &c1);
        drawn_square_at(&board, svg_attribute(closing, "x2"), svg_attribute(closing, "y2"), true, &r2, &c2);
        cr_assert(r1 == squares[2 * count - 2] && c1 == squares[2 * count - 1] && r2 == squares[0] && c2 == squares[1]);
    }
    expect_numbers(drawn.body, &board, squares, count);
    free(text);
    free(squares);
    http_result_free(&drawn);
    http_result_free(&json);
}

Test(knight_tour_svg, the_drawn_path_is_the_tour) {
    static const tour_case cases[] = {
        {1, 1, 0, 0, false},      {3, 4, 0, 0, false},        {5, 5, 2, 2, false},   {8, 8, 0, 0, false},
        {8, 8, 3, 4, true},       {6, 7, 5, 6, true},         {16, 16, 7, 9, false}, {17, 17, 0, 0, false},
        {4, 9, 0, 4, false},      {3, 10, 1, 1, true},        {30, 41, 12, 7, true}, {200, 200, 199, 0, false},
        {100, 400, 50, 50, true}, {3, 13333, 0, 6000, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_drawn_tour(&cases[i]);
}

Test(knight_tour_svg, no_tour_answers_the_json_reason) {
    http_result r = http_get("/knight-tour?rows=4&cols=8&start=1,3&format=svg");
    cr_assert_eq(r.status, 200);
    char *type = http_header(&r, "Content-Type");
    cr_assert_str_eq(type, "application/json");
    cr_assert_not_null(strstr(r.body, "\"found\":false,\"reason\":"), "%s", r.body);
    free(type);
    http_result_free(&r);
}

Test(knight_tour_svg, boards_too_large_to_draw_name_the_format) {
    http_result r = http_get("/knight-tour?n=201&format=svg");
    expect_error_field(r, 422, "too_large", "format");
    r = http_get("/knight-tour?rows=3&cols=13334&format=svg");
    expect_error_field(r, 422, "too_large", "format");
    r = http_get("/knight-tour?n=2001&format=svg");
    expect_error_field(r, 422, "too_large", "n");
}
