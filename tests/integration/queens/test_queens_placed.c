/* Integration tests of /queens with `placed`: for n = 4 to 12 and random partial boards (some
 * completable, some not, some conflicting), the solutions listed and counted equal the full list of
 * a plain Python backtracking search filtered to those containing the placed queens, in the same
 * order; mode "first" answers found exactly when that filtered list is not empty, with a solution
 * that is valid and keeps the placed queens; the same for boards of 100 to 1000 with queens placed
 * at random (checked by the definition); conflicting placements name a pair that does conflict. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static uint64_t rng_state = 0xA0761D6478BD642Fu;
static unsigned next_random(unsigned bound) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % bound);
}

static const cJSON *member(const cJSON *object, const char *name) {
    return cJSON_GetObjectItemCaseSensitive(object, name);
}

/* Every solution for n by plain backtracking in Python, in lexicographic order. */
static cJSON *python_solutions(int n) {
    char command[800];
    snprintf(command, sizeof command,
             "python3 -c '\n"
             "import json\n"
             "n = %d\n"
             "out = []\n"
             "def go(cols, used, sums, diffs):\n"
             "    r = len(cols)\n"
             "    if r == n: out.append(list(cols)); return\n"
             "    for c in range(n):\n"
             "        if c not in used and r + c not in sums and r - c not in diffs:\n"
             "            cols.append(c)\n"
             "            go(cols, used | {c}, sums | {r + c}, diffs | {r - c})\n"
             "            cols.pop()\n"
             "go([], set(), set(), set())\n"
             "print(json.dumps(out))'",
             n);
    char *output = run_command_output(command);
    cr_assert_not_null(output);
    cJSON *list = cJSON_Parse(output);
    free(output);
    return list;
}

static bool attack(int r1, int c1, int r2, int c2) {
    return r1 == r2 || c1 == c2 || r1 - c1 == r2 - c2 || r1 + c1 == r2 + c2;
}

typedef struct placement {
    int count;
    int row[4], col[4];
} placement;

static bool keeps(const cJSON *solution, const placement *p) {
    for (int i = 0; i < p->count; i++)
        if (cJSON_GetArrayItem(solution, p->row[i])->valueint != p->col[i]) return false;
    return true;
}

static bool conflicting(const placement *p) {
    for (int i = 0; i < p->count; i++)
        for (int j = i + 1; j < p->count; j++)
            if (attack(p->row[i], p->col[i], p->row[j], p->col[j])) return true;
    return false;
}

static char *placed_json(const placement *p) {
    static char text[256];
    int used = snprintf(text, sizeof text, "[");
    for (int i = 0; i < p->count; i++)
        used += snprintf(text + used, sizeof text - (size_t)used, "%s[%d,%d]", i ? "," : "", p->row[i], p->col[i]);
    snprintf(text + used, sizeof text - (size_t)used, "]");
    return text;
}

static void expect_conflict(const cJSON *doc, const placement *p) {
    cr_assert(cJSON_IsFalse(member(doc, "found")));
    const cJSON *pair = member(member(doc, "conflict"), "queens");
    const cJSON *a = cJSON_GetArrayItem(pair, 0), *b = cJSON_GetArrayItem(pair, 1);
    int r1 = cJSON_GetArrayItem(a, 0)->valueint, c1 = cJSON_GetArrayItem(a, 1)->valueint;
    int r2 = cJSON_GetArrayItem(b, 0)->valueint, c2 = cJSON_GetArrayItem(b, 1)->valueint;
    cr_assert(attack(r1, c1, r2, c2), "the pair named conflicts");
    bool first_placed = false, second_placed = false;
    for (int i = 0; i < p->count; i++) {
        first_placed |= p->row[i] == r1 && p->col[i] == c1;
        second_placed |= p->row[i] == r2 && p->col[i] == c2;
    }
    cr_assert(first_placed && second_placed, "both queens of the pair were placed");
}

Test(queens_placed, lists_counts_and_first_equal_the_filtered_full_list_up_to_12, .timeout = 300) {
    for (int n = 4; n <= 12; n++) {
        cJSON *all = python_solutions(n);
        for (int trial = 0; trial < 12; trial++) {
            placement p = {.count = 1 + (int)next_random(3)};
            const cJSON *source = cJSON_GetArrayItem(all, (int)next_random((unsigned)cJSON_GetArraySize(all)));
            for (int i = 0; i < p.count; i++) { /* from a solution, or anywhere one time in three */
                p.row[i] = (int)next_random((unsigned)n);
                p.col[i] =
                    trial % 3 == 2 ? (int)next_random((unsigned)n) : cJSON_GetArrayItem(source, p.row[i])->valueint;
                for (int j = 0; j < i; j++)
                    if (p.row[j] == p.row[i] && p.col[j] == p.col[i]) p.count = i; /* no square twice */
            }
            cJSON *expected = cJSON_CreateArray();
            const cJSON *solution;
            cJSON_ArrayForEach(solution, all) if (keeps(solution, &p))
                cJSON_AddItemToArray(expected, cJSON_Duplicate(solution, true));
            char body[400];
            const char *modes[] = {"solutions", "count", "first"};
            for (int m = 0; m < 3; m++) {
                snprintf(body, sizeof body, "{\"n\":%d,\"mode\":\"%s\",\"placed\":%s}", n, modes[m], placed_json(&p));
                cJSON *doc = post_ok("/queens", body);
                if (conflicting(&p)) {
                    expect_conflict(doc, &p);
                } else if (m == 0) {
                    cr_assert(cJSON_Compare(member(doc, "solutions"), expected, true), "%s", body);
                } else if (m == 1) {
                    char total[16];
                    snprintf(total, sizeof total, "%d", cJSON_GetArraySize(expected));
                    cr_assert_str_eq(member(doc, "total")->valuestring, total, "%s", body);
                } else {
                    cr_assert_eq(cJSON_IsTrue(member(doc, "found")), cJSON_GetArraySize(expected) > 0, "%s", body);
                    const cJSON *found = member(doc, "solution");
                    bool listed = false;
                    cJSON_ArrayForEach(solution, expected) listed |= cJSON_Compare(solution, found, true);
                    cr_assert(found == NULL || listed, "the completion is a solution keeping the placed queens: %s",
                              body);
                }
                cJSON_Delete(doc);
            }
            cJSON_Delete(expected);
        }
        cJSON_Delete(all);
    }
}

Test(queens_placed, large_boards_are_completed_keeping_the_placed_queens) {
    int sizes[] = {100, 500, 1000};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        placement p = {.count = 4};
        for (int i = 0; i < p.count; i++) {
            do {
                p.row[i] = (int)next_random((unsigned)n), p.col[i] = (int)next_random((unsigned)n);
                bool clash = false;
                for (int j = 0; j < i; j++) clash |= attack(p.row[i], p.col[i], p.row[j], p.col[j]);
                if (!clash) break;
            } while (true);
        }
        char body[400];
        snprintf(body, sizeof body, "{\"n\":%d,\"mode\":\"first\",\"placed\":%s}", n, placed_json(&p));
        cJSON *doc = post_ok("/queens", body);
        cr_assert(cJSON_IsTrue(member(doc, "found")), "%s", body);
        const cJSON *solution = member(doc, "solution");
        cr_assert_eq(cJSON_GetArraySize(solution), n);
        cr_assert(keeps(solution, &p), "%s keeps the placed queens", body);
        int *cols = malloc(sizeof *cols * (size_t)n);
        char *used = calloc((size_t)(5 * n), 1); /* columns, then the two diagonals */
        int r = 0;
        const cJSON *col;
        cJSON_ArrayForEach(col, solution) cols[r++] = col->valueint;
        for (r = 0; r < n; r++) {
            int c = cols[r];
            cr_assert(c >= 0 && c < n && !used[c] && !used[n + r + c] && !used[4 * n + r - c], "row %d attacked", r);
            used[c] = used[n + r + c] = used[4 * n + r - c] = 1;
        }
        free(cols);
        free(used);
        cJSON_Delete(doc);
    }
}

Test(queens_placed, malformed_placements_are_400_naming_the_field) {
    http_result r = http_post("/queens", "{\"n\":8,\"placed\":[[0,8]]}");
    expect_error_field(r, 400, "invalid_field", "placed");
    r = http_post("/queens", "{\"n\":8,\"placed\":[[0,1],[0,1]]}");
    expect_error_field(r, 400, "invalid_field", "placed");
    r = http_post("/queens", "{\"n\":8,\"placed\":[3]}");
    expect_error_field(r, 400, "invalid_field", "placed");
    r = http_post("/queens", "{\"n\":8,\"placed\":[[0,1]],\"unique\":true}");
    expect_error_field(r, 400, "conflicting_fields", "unique");
    r = http_get("/queens?n=8&placed=0,1");
    expect_error_field(r, 400, "invalid_field", "placed");
}
