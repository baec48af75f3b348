/* The checks of drawn answers of svg_checks.h. */
#include "svg_checks.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void expect_header(const http_result *result, const char *name, const char *value) {
    char *got = http_header(result, name);
    cr_assert(got != NULL && strcmp(got, value) == 0, "%s: %s, expected %s", name, got ? got : "(none)", value);
    free(got);
}

static void expect_xmllint_accepts(const char *body, size_t len) {
    char path[] = "/tmp/puzzled-svg-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, body, len), (ssize_t)len);
    close(fd);
    char command[128];
    snprintf(command, sizeof command, "xmllint --noout %s 2>&1 || echo \"xmllint rejected it\"", path);
    char *complaints = run_command_output(command);
    unlink(path);
    cr_assert(complaints != NULL && complaints[0] == '\0', "xmllint: %.500s",
              complaints ? complaints : "could not run");
    free(complaints);
}

void expect_svg_answer(const http_result *result) {
    cr_assert_eq(result->status, 200, "%ld %.300s", result->status, result->body);
    expect_header(result, "Content-Type", "image/svg+xml");
    expect_header(result, "Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    expect_header(result, "Access-Control-Allow-Origin", "*");
    cr_assert(strncmp(result->body, "<svg ", 5) == 0, "%.100s", result->body);
    cr_assert_eq(occurrences(result->body, "<svg "), 1);
    expect_xmllint_accepts(result->body, result->body_len);
}

double svg_attribute(const char *element, const char *name) {
    const char *end = strchr(element, '>');
    cr_assert_not_null(end);
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *at = strstr(element, key);
    cr_assert(at != NULL && at < end, "no %s in %.120s", name, element);
    char *after;
    double value = strtod(at + strlen(key), &after);
    cr_assert_eq(*after, '"', "%s is not a number in %.120s", name, element);
    return value;
}

drawn_board read_drawn_board(const char *svg, long rows, long cols) {
    const char *rect = strstr(svg, "<rect id=\"board\"");
    cr_assert_not_null(rect, "no board in %.200s", svg);
    drawn_board board = {.x = svg_attribute(rect, "x"), .y = svg_attribute(rect, "y"), .rows = rows, .cols = cols};
    double width = svg_attribute(rect, "width"), height = svg_attribute(rect, "height");
    board.square = width / (double)cols;
    cr_assert(board.square > 0 && fabs(height / (double)rows - board.square) < 1e-9,
              "a %gx%g board is not %ldx%ld squares", width, height, rows, cols);
    return board;
}

static long index_at(double offset, double square, long limit, const char *what) {
    double at = offset / square;
    long index = lround(at);
    cr_assert(fabs(at - (double)index) < 1e-9 && index >= 0 && index < limit, "%s %g is not on a square (of %ld)", what,
              at, limit);
    return index;
}

void drawn_square_at(const drawn_board *board, double x, double y, bool centre, long *row, long *col) {
    double shift = centre ? board->square / 2 : 0;
    *row = index_at(y - board->y - shift, board->square, board->rows, "row");
    *col = index_at(x - board->x - shift, board->square, board->cols, "column");
}

long occurrences(const char *text, const char *needle) {
    long count = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle)) count++;
    return count;
}
