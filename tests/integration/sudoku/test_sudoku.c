/* Integration tests of /sudoku/... against the real server, with qqwing (Debian's Sudoku program, run
 * at test time) as the independent judge: our solutions of qqwing's puzzles obey the givens and the
 * rules (checked by a validator written here), our uniqueness answers and solution counts agree with
 * `qqwing --count-solutions`, every generated 9 x 9 puzzle has one solution by qqwing's count and
 * replays from its seed, and qqwing rates our simple puzzles simple. Also 4 x 4, 16 x 16 and 25 x 25,
 * the rows form, check, hint, explain and every error. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/qqwing_judge.h"
#include "harness.h"

/* ---- independent validator ---- */

static int symbol_value(char c) {
    if (c >= '1' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'P') return c - 'A' + 10;
    return 0;
}

/* `solution` is a full grid obeying the rules that keeps every given of `puzzle`. */
static void assert_solves(const char *puzzle, const char *solution) {
    size_t cells = strlen(puzzle);
    int size = 1;
    while ((size_t)(size * size) < cells) size++;
    int box = 1;
    while (box * box < size) box++;
    cr_assert_eq(strlen(solution), cells);
    for (size_t k = 0; k < cells; k++) {
        cr_assert(symbol_value(solution[k]) >= 1 && symbol_value(solution[k]) <= size, "cell %zu", k);
        if (puzzle[k] != '.' && puzzle[k] != '0') cr_assert_eq(puzzle[k], solution[k], "given %zu changed", k);
    }
    for (int unit = 0; unit < 3 * size; unit++) {
        unsigned long seen = 0;
        for (int k = 0; k < size; k++) {
            int index = unit % size, row, column;
            if (unit < size) {
                row = index, column = k;
            } else if (unit < 2 * size) {
                row = k, column = index;
            } else {
                row = index / box * box + k / box, column = index % box * box + k % box;
            }
            seen |= 1UL << symbol_value(solution[row * size + column]);
        }
        cr_assert_eq(seen, ((1UL << size) - 1) << 1, "unit %d of %s repeats a value", unit, solution);
    }
}

static cJSON *solve(const char *puzzle, const char *extra) {
    char body[1200];
    snprintf(body, sizeof body, "{\"puzzle\": \"%s\"%s}", puzzle, extra);
    return post_ok("/sudoku/solve", body);
}

static const char *text(const cJSON *doc, const char *name) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, name);
    cr_assert(cJSON_IsString(item), "no string '%s'", name);
    return item->valuestring;
}

static bool flag(const cJSON *doc, const char *name) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, name);
    cr_assert(cJSON_IsBool(item), "no boolean '%s'", name);
    return cJSON_IsTrue(item);
}

static double number(const cJSON *doc, const char *name) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, name);
    cr_assert(cJSON_IsNumber(item), "no number '%s'", name);
    return item->valuedouble;
}

/* ---- solve ---- */

Test(sudoku, solves_qqwing_expert_puzzles_uniquely, .timeout = 300) {
    enum { PUZZLES = 100 };
    char(*puzzles)[QQWING_LINE] = qqwing_generate(PUZZLES, "expert");
    for (int k = 0; k < PUZZLES; k++) {
        cJSON *doc = solve(puzzles[k], "");
        assert_solves(puzzles[k], text(doc, "solution"));
        cr_assert(flag(doc, "unique"), "%s", puzzles[k]);
        cJSON_Delete(doc);
    }
    free(puzzles);
}

static cJSON *generate(const char *query) {
    char path[256];
    snprintf(path, sizeof path, "/sudoku/generate?%s", query);
    return get_ok(path);
}

/* `count` puzzles of our generator at seeds first_seed, first_seed + 1, ... (`options`: more of the
 * query, "" or ending in '&'), as qqwing's 81-character lines. */
static char (*puzzles_at_seeds(int count, const char *options, int first_seed))[QQWING_LINE] {
    char(*puzzles)[QQWING_LINE] = calloc((size_t)count, QQWING_LINE);
    for (int k = 0; k < count; k++) {
        char query[96];
        snprintf(query, sizeof query, "%sseed=%d", options, first_seed + k);
        cJSON *doc = generate(query);
        snprintf(puzzles[k], QQWING_LINE, "%s", text(doc, "puzzle"));
        cJSON_Delete(doc);
    }
    return puzzles;
}

/* Puzzles of our generator at fixed seeds with 1..3 givens taken away, so that every run asks qqwing
 * the same (about 6 s of its CPU, counts up to 8,076); qqwing's own random puzzles with up to four
 * givens taken away sometimes had hundreds of thousands of solutions, which qqwing counts one by
 * one for minutes. */
Test(sudoku, counts_solutions_like_qqwing, .timeout = 600) {
    enum { PUZZLES = 40 };
    char(*puzzles)[QQWING_LINE] = puzzles_at_seeds(PUZZLES, "", 2000);
    for (int k = 0; k < PUZZLES; k++) {
        for (int removed = 0, cell = k % 81; removed < 1 + k % 3; cell = (cell + 7) % 81) {
            if (puzzles[k][cell] != '.') {
                puzzles[k][cell] = '.';
                removed++;
            }
        }
    }
    long counts[PUZZLES];
    qqwing_count((const char(*)[QQWING_LINE])puzzles, PUZZLES, counts);
    enum { COUNT_LIMIT = 1000000 };
    for (int k = 0; k < PUZZLES; k++) {
        cJSON *doc = solve(puzzles[k], ", \"count_limit\": 1000000");
        /* a puzzle with more solutions than the limit (it happens: the puzzles are random) is counted
         * up to the limit, and says so */
        bool beyond = counts[k] > COUNT_LIMIT;
        cr_assert_eq((long)number(doc, "total"), beyond ? COUNT_LIMIT : counts[k], "%s", puzzles[k]);
        cr_assert_eq(flag(doc, "total_exact"), !beyond, "%s", puzzles[k]);
        cr_assert_eq(flag(doc, "unique"), counts[k] == 1);
        assert_solves(puzzles[k], text(doc, "solution"));
        cJSON_Delete(doc);
    }
    free(puzzles);
}

Test(sudoku, solves_rows_of_numbers_and_answers_in_rows) {
    cJSON *doc = post_ok("/sudoku/solve", "{\"rows\": [[1,0,0,0],[0,0,3,0],[0,4,0,0],[0,0,0,2]]}");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "solution");
    cr_assert_eq(cJSON_GetArraySize(rows), 4);
    char puzzle[] = "1.....3..4.....2", solution[17] = "";
    for (int r = 0; r < 4; r++) {
        for (int c = 0; c < 4; c++)
            solution[r * 4 + c] = (char)('0' + cJSON_GetArrayItem(cJSON_GetArrayItem(rows, r), c)->valueint);
    }
    assert_solves(puzzle, solution);
    cJSON_Delete(doc);
}

enum { BULK_PUZZLES = 500 };

/* qqwing's puzzles a line each (CRLF), a blank line, then three that each fail: conflicting givens,
 * no solution, a wrong length. */
static char *bulk_body(const char (*puzzles)[QQWING_LINE]) {
    size_t size = BULK_PUZZLES * 83 + 128, used = 0;
    char *body = malloc(size);
    for (int k = 0; k < BULK_PUZZLES; k++) used += (size_t)snprintf(body + used, size - used, "%s\r\n", puzzles[k]);
    snprintf(body + used, size - used, "\n1..1............\n12.....4........\n123");
    return body;
}

static const char *const bulk_error_codes[] = {"conflicting_givens", "no_solution", "invalid_field"};

Test(sudoku, solves_qqwing_puzzles_in_bulk_one_ndjson_line_each, .timeout = 300) {
    enum { PUZZLES = BULK_PUZZLES };
    char(*puzzles)[QQWING_LINE] = qqwing_generate(PUZZLES, "any");
    char *body = bulk_body((const char(*)[QQWING_LINE])puzzles);
    const char *const headers[] = {"Content-Type: text/plain", NULL};
    http_result result = http_request(server_url(), "POST", "/sudoku/solve", body, headers);
    cr_assert_eq(result.status, 200);
    cJSON *lines = http_ndjson(&result);
    cr_assert_not_null(lines);
    cr_assert_eq(cJSON_GetArraySize(lines), PUZZLES + 3);
    for (int k = 0; k < PUZZLES; k++) {
        const cJSON *line = cJSON_GetArrayItem(lines, k);
        cr_assert_eq((int)number(line, "line"), k + 1);
        assert_solves(puzzles[k], text(line, "solution"));
        cr_assert(flag(line, "unique"));
    }
    /* a blank line is skipped but counted; then the three errors */
    for (int k = 0; k < 3; k++) {
        const cJSON *line = cJSON_GetArrayItem(lines, PUZZLES + k);
        cr_assert_eq((int)number(line, "line"), PUZZLES + 2 + k);
        cr_assert_str_eq(text(cJSON_GetObjectItemCaseSensitive(line, "error"), "code"), bulk_error_codes[k]);
    }
    cJSON_Delete(lines);
    http_result_free(&result);
    free(body);
    free(puzzles);
}

/* Bulk with Accept: text/plain, on `path_and_query`: the answer's lines, split in place in
 * result->body (at most `max_lines`); asserts a 200 in text/plain. */
static int bulk_text_lines(const char *path_and_query, const char *body, http_result *result, char **lines,
                           int max_lines) {
    const char *const headers[] = {"Content-Type: text/plain", "Accept: text/plain", NULL};
    *result = http_request(server_url(), "POST", path_and_query, body, headers);
    cr_assert_eq(result->status, 200);
    char *type = http_header(result, "Content-Type");
    cr_assert(type != NULL && strncmp(type, "text/plain", 10) == 0, "Content-Type %s", type ? type : "(none)");
    free(type);
    int count = 0;
    for (char *at = result->body; *at != '\0'; count++) {
        char *end = strchr(at, '\n');
        cr_assert_not_null(end, "the last line has no line end");
        *end = '\0';
        cr_assert_lt(count, max_lines);
        lines[count] = at;
        at = end + 1;
    }
    return count;
}

Test(sudoku, solves_qqwing_puzzles_in_bulk_one_text_line_each, .timeout = 300) {
    enum { PUZZLES = BULK_PUZZLES, LINES = PUZZLES + 3 };
    char(*puzzles)[QQWING_LINE] = qqwing_generate(PUZZLES, "any");
    char *body = bulk_body((const char(*)[QQWING_LINE])puzzles), *lines[LINES];
    http_result result;
    cr_assert_eq(bulk_text_lines("/sudoku/solve", body, &result, lines, LINES), LINES);
    for (int k = 0; k < PUZZLES; k++) assert_solves(puzzles[k], lines[k]); /* unique: the solution alone */
    for (int k = 0; k < 3; k++) cr_assert_str_eq(lines[PUZZLES + k], bulk_error_codes[k]); /* the blank line: none */
    http_result_free(&result);
    free(body);
    free(puzzles);
}

/* The empty 4 x 4 grid has 288 solutions (the number of 4 x 4 Sudoku grids; a search stopped at
 * count_limit cannot tell whether more exist, hence "288+" at 288); a full one, one. */
Test(sudoku, bulk_text_lines_say_not_unique_and_counts) {
    static const char body[] = "................\n1234341221434321\n";
    char *lines[2];
    http_result result;
    cr_assert_eq(bulk_text_lines("/sudoku/solve", body, &result, lines, 2), 2);
    cr_assert_eq(strlen(lines[0]), 16 + strlen(" not_unique"));
    cr_assert_str_eq(lines[0] + 16, " not_unique");
    lines[0][16] = '\0';
    assert_solves("................", lines[0]);
    cr_assert_str_eq(lines[1], "1234341221434321");
    http_result_free(&result);
    static const struct {
        const char *query, *first_count;
    } limits[] = {{"/sudoku/solve?count_limit=1000", " 288"},
                  {"/sudoku/solve?count_limit=288", " 288+"},
                  {"/sudoku/solve?count_limit=100", " 100+"}};
    for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
        cr_assert_eq(bulk_text_lines(limits[k].query, body, &result, lines, 2), 2);
        cr_assert_str_eq(lines[0] + 16, limits[k].first_count, "%s", limits[k].query);
        cr_assert_str_eq(lines[1], "1234341221434321 1");
        http_result_free(&result);
    }
}

/* ---- generate ---- */

Test(sudoku, generated_9x9_puzzles_have_one_solution_by_qqwing_and_replay, .timeout = 300) {
    static const char *const difficulties[] = {"simple", "easy", "intermediate", "expert", "any"};
    enum { PER_DIFFICULTY = 8, PUZZLES = 5 * PER_DIFFICULTY };
    char(*puzzles)[QQWING_LINE] = calloc(PUZZLES, QQWING_LINE);
    for (int k = 0; k < PUZZLES; k++) {
        char query[128];
        snprintf(query, sizeof query, "difficulty=%s&seed=%d&symmetry=random", difficulties[k / PER_DIFFICULTY],
                 1000 + k);
        cJSON *doc = generate(query), *again = generate(query);
        snprintf(puzzles[k], QQWING_LINE, "%s", text(doc, "puzzle"));
        cr_assert_str_eq(text(again, "puzzle"), puzzles[k], "the same seed gave another puzzle");
        cr_assert_str_eq(text(again, "solution"), text(doc, "solution"));
        assert_solves(puzzles[k], text(doc, "solution"));
        if (k / PER_DIFFICULTY < 4) cr_assert_str_eq(text(doc, "rating"), difficulties[k / PER_DIFFICULTY]);
        int givens = 0;
        for (int c = 0; c < 81; c++) givens += puzzles[k][c] != '.';
        cr_assert_eq((int)number(doc, "givens"), givens);
        cJSON_Delete(doc);
        cJSON_Delete(again);
    }
    long counts[PUZZLES];
    qqwing_count((const char(*)[QQWING_LINE])puzzles, PUZZLES, counts);
    for (int k = 0; k < PUZZLES; k++)
        cr_assert_eq(counts[k], 1, "qqwing counts %ld solutions of %s", counts[k], puzzles[k]);
    free(puzzles);
}

Test(sudoku, qqwing_rates_our_simple_puzzles_simple, .timeout = 300) {
    enum { PUZZLES = 10 };
    char(*puzzles)[QQWING_LINE] = puzzles_at_seeds(PUZZLES, "difficulty=simple&", 77);
    char ratings[PUZZLES][16];
    qqwing_rate((const char(*)[QQWING_LINE])puzzles, PUZZLES, ratings);
    for (int k = 0; k < PUZZLES; k++) cr_assert_str_eq(ratings[k], "Simple", "%s", puzzles[k]);
    free(puzzles);
}

Test(sudoku, generates_and_solves_4x4_16x16_and_25x25, .timeout = 300) {
    for (int box = 2; box <= 5; box++) {
        char query[64];
        snprintf(query, sizeof query, "box=%d&seed=%d", box, box);
        cJSON *doc = generate(query);
        const char *puzzle = text(doc, "puzzle");
        cr_assert_eq(strlen(puzzle), (size_t)(box * box * box * box));
        assert_solves(puzzle, text(doc, "solution"));
        cJSON *solved = solve(puzzle, "");
        cr_assert(flag(solved, "unique"));
        cr_assert_str_eq(text(solved, "solution"), text(doc, "solution"));
        cJSON_Delete(solved);
        cJSON_Delete(doc);
    }
    cJSON *grid = generate("box=5&mode=grid&seed=9");
    const char *solution = text(grid, "solution");
    char empty[626];
    memset(empty, '.', 625);
    empty[625] = '\0';
    assert_solves(empty, solution);
    cJSON_Delete(grid);
}

Test(sudoku, draws_the_puzzle_and_the_solution_as_svg) {
    cJSON *doc = generate("seed=11");
    http_result drawn = http_get("/sudoku/generate?seed=11&format=svg");
    cr_assert_eq(drawn.status, 200);
    char *type = http_header(&drawn, "Content-Type");
    cr_assert_str_eq(type, "image/svg+xml");
    /* one <text> per given, 10 lines each way */
    int texts = 0, lines = 0;
    for (const char *p = drawn.body; (p = strstr(p, "<text ")) != NULL; p++) texts++;
    for (const char *p = drawn.body; (p = strstr(p, "<line ")) != NULL; p++) lines++;
    cr_assert_eq(texts, (int)number(doc, "givens"));
    cr_assert_eq(lines, 20);
    cr_assert(strncmp(drawn.body, "<svg ", 5) == 0 && strstr(drawn.body, "</svg>") != NULL);
    free(type);
    http_result_free(&drawn);
    char path[200];
    snprintf(path, sizeof path, "/sudoku/solve?format=svg&puzzle=%s", text(doc, "puzzle"));
    http_result solved = http_get(path);
    texts = 0;
    for (const char *p = solved.body; (p = strstr(p, "<text ")) != NULL; p++) texts++;
    cr_assert_eq(texts, 81);
    http_result_free(&solved);
    cJSON_Delete(doc);
}

/* ---- check, hint, explain ---- */

Test(sudoku, check_lists_every_conflict) {
    cJSON *doc = get_ok("/sudoku/check?puzzle=11..1...........");
    cr_assert_not(flag(doc, "solvable"));
    cr_assert_not(flag(doc, "complete"));
    const cJSON *conflicts = cJSON_GetObjectItemCaseSensitive(doc, "conflicts");
    /* 1 twice in row 0 and in box 0; 1 twice in column 0 */
    cr_assert_eq(cJSON_GetArraySize(conflicts), 3);
    cJSON_Delete(doc);
    doc = get_ok("/sudoku/check?puzzle=1234341221434321");
    cr_assert(flag(doc, "complete") && flag(doc, "solved") && flag(doc, "solvable"));
    cJSON_Delete(doc);
}

Test(sudoku, explain_rates_as_generate_does_and_ends_at_the_solution) {
    cJSON *doc = generate("seed=5&difficulty=intermediate");
    char body[256];
    snprintf(body, sizeof body, "{\"puzzle\": \"%s\"}", text(doc, "puzzle"));
    cJSON *explained = post_ok("/sudoku/explain", body), *hint = post_ok("/sudoku/hint", body);
    cr_assert_str_eq(text(explained, "rating"), "intermediate");
    cr_assert_str_eq(text(explained, "solution"), text(doc, "solution"));
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(explained, "steps"), 0);
    char *a = cJSON_PrintUnformatted(first),
         *b = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(hint, "step"));
    cr_assert_str_eq(a, b, "the hint is the first step of the explanation");
    free(a);
    free(b);
    cJSON_Delete(explained);
    cJSON_Delete(hint);
    cJSON_Delete(doc);
}

/* ---- errors ---- */

Test(sudoku, bad_input_gets_its_error) {
    expect_error_field(http_get("/sudoku/solve?puzzle=123"), 400, "invalid_field", "puzzle");
    expect_error_field(http_get("/sudoku/solve?puzzle=1x.............."), 400, "invalid_field", "puzzle");
    expect_error_field(http_get("/sudoku/solve?puzzle=5..............."), 400, "invalid_field", "puzzle");
    expect_error_field(http_get("/sudoku/generate?box=6"), 400, "invalid_field", "box");
    expect_error_field(http_get("/sudoku/generate?box=1"), 400, "invalid_field", "box");
    expect_error_field(http_get("/sudoku/generate?difficulty=hard"), 400, "invalid_field", "difficulty");
    expect_error_field(http_get("/sudoku/generate?symmetry=diagonal"), 400, "invalid_field", "symmetry");
    expect_error_field(http_get("/sudoku/generate?seed=-1"), 400, "invalid_field", "seed");
    expect_error_field(http_get("/sudoku/solve"), 400, "missing_field", "puzzle");
    expect_error_field(http_post("/sudoku/solve", "{\"puzzle\": \"1...\", \"rows\": [1]}"), 400, "conflicting_fields",
                       "rows");
    expect_error_field(http_post("/sudoku/solve", "{\"rows\": [[1, 2], [3, 4]]}"), 400, "invalid_field", "rows");
    expect_error_field(http_post("/sudoku/solve", "{\"rows\": [[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,5]]}"), 400,
                       "invalid_field", "rows");
    /* givens that conflict: the message names the cells */
    http_result result = http_get("/sudoku/hint?puzzle=1..1............");
    cJSON *doc = expect_error(&result, 422, "conflicting_givens");
    cr_assert_not_null(
        strstr(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "error"), "message")->valuestring,
               "[0, 0], [0, 3]"));
    cJSON_Delete(doc);
    http_result_free(&result);
    /* and the details say it for programs: the value, its unit and the cells */
    expect_error_details(http_get("/sudoku/hint?puzzle=1..1............"), 422, "conflicting_givens",
                         "{\"value\":1,\"unit\":{\"kind\":\"row\",\"index\":0},\"cells\":[[0,0],[0,3]]}");
    expect_error_details(http_get("/sudoku/solve?puzzle=.2.......2......"), 422, "conflicting_givens",
                         "{\"value\":2,\"unit\":{\"kind\":\"column\",\"index\":1},\"cells\":[[0,1],[2,1]]}");
    /* no conflict, no solution: (0,2) and (0,3) must hold 3 and 4, and the 4 in their box leaves both only 3 */
    expect_error_field(http_get("/sudoku/solve?puzzle=12.....4........"), 422, "no_solution", "puzzle");
    expect_error_field(http_get("/sudoku/explain?puzzle=12.....4........"), 422, "no_solution", "puzzle");
}

/* A bulk line that cannot be solved says what a request of that puzzle alone says, code and message:
 * conflicting givens of every size (a row, a column and a box on 9 x 9, which the band search
 * answers) and givens without a conflict that leave no solution. */
Test(sudoku, bulk_errors_are_those_of_single_requests) {
    char puzzles[8][626];
    snprintf(puzzles[0], sizeof puzzles[0], "11%79s", "");                /* a row */
    snprintf(puzzles[1], sizeof puzzles[1], "1%8s1%71s", "", "");         /* a column */
    snprintf(puzzles[2], sizeof puzzles[2], "1%9s1%70s", "", "");         /* a box */
    snprintf(puzzles[3], sizeof puzzles[3], "12345678.%8s9%63s", "", ""); /* no place for 9 in row 0 */
    snprintf(puzzles[4], sizeof puzzles[4], "1..1............");          /* 4 x 4 */
    snprintf(puzzles[5], sizeof puzzles[5], "12.....4........");          /* 4 x 4, no solution */
    snprintf(puzzles[6], sizeof puzzles[6], "G%15sG%239s", "", "");       /* 16 x 16 */
    snprintf(puzzles[7], sizeof puzzles[7], "%623sPP", "");               /* 25 x 25 */
    char body[8 * 627] = "";
    for (int k = 0; k < 8; k++) {
        for (char *at = puzzles[k]; *at != '\0'; at++) *at = *at == ' ' ? '.' : *at;
        strcat(strcat(body, puzzles[k]), "\n");
    }
    const char *const headers[] = {"Content-Type: text/plain", NULL};
    http_result bulk = http_request(server_url(), "POST", "/sudoku/solve", body, headers);
    cr_assert_eq(bulk.status, 200);
    cJSON *lines = http_ndjson(&bulk);
    cr_assert_eq(cJSON_GetArraySize(lines), 8);
    for (int k = 0; k < 8; k++) {
        char path[sizeof "/sudoku/solve?puzzle=" + sizeof puzzles[k]] = "/sudoku/solve?puzzle=";
        strcat(path, puzzles[k]);
        http_result alone = http_get(path);
        cr_assert_eq(alone.status, 422, "puzzle %d", k);
        cJSON *doc = http_json(&alone);
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(doc, "error");
        const cJSON *got = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(lines, k), "error");
        cr_assert_str_eq(text(want, "code"), k == 3 || k == 5 ? "no_solution" : "conflicting_givens", "puzzle %d", k);
        cr_assert_str_eq(text(got, "code"), text(want, "code"), "puzzle %d", k);
        cr_assert_str_eq(text(got, "message"), text(want, "message"), "puzzle %d", k);
        cJSON_Delete(doc);
        http_result_free(&alone);
    }
    cJSON_Delete(lines);
    http_result_free(&bulk);
}
