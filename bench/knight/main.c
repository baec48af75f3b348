/* Benchmark of the knight's tour core in process: the plain textbook backtracking against "auto" on
 * 5x5 .. 8x8 boards from the corner, open tours, each with a 10 s cap (a capped run reports the cap and
 * says so in the measure's name); and "auto" alone on large boards, open and closed.
 * Prints TSV rows: measure, ours, peer, peer value, unit, which is better. */
#include <stdio.h>
#include <time.h>

#include "core/knight/knight_tour.h"

#define BACKTRACKING_CAP_MS 10000

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Milliseconds to answer; *outcome tells how it ended. */
static double time_tour(int rows, int cols, bool closed, kt_algorithm algorithm, uint64_t cap_ms, kt_outcome *outcome) {
    kt_request request = {.rows = rows, .cols = cols, .closed = closed, .algorithm = algorithm};
    deadline limit = cap_ms ? deadline_after_ms(cap_ms) : deadline_none();
    double start = now_ms();
    kt_result result = knight_tour_find(&request, &limit);
    double elapsed = now_ms() - start;
    *outcome = result.outcome;
    kt_result_free(&result);
    return elapsed;
}

int main(void) {
    for (int n = 5; n <= 8; n++) {
        kt_outcome auto_outcome, plain_outcome;
        double ours = time_tour(n, n, false, KT_ALGORITHM_AUTO, 0, &auto_outcome);
        double plain = time_tour(n, n, false, KT_ALGORITHM_BACKTRACKING, BACKTRACKING_CAP_MS, &plain_outcome);
        const char *peer = plain_outcome == KT_DEADLINE_EXCEEDED ? "plain backtracking (TIMED OUT at the 10 s cap)"
                                                                 : "plain backtracking";
        printf("knight-tour %dx%d open from [0,0], auto%s\t%.3f\t%s\t%.3f\tms\tlower\n", n, n,
               auto_outcome == KT_FOUND ? "" : " (NOT FOUND)", ours, peer, plain);
    }
    const int sizes[][2] = {{1000, 1000}, {2000, 2000}, {1001, 1001}, {3, 1333333}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int closed = 0; closed <= 1; closed++) {
            kt_outcome outcome;
            double ms = time_tour(sizes[i][0], sizes[i][1], closed, KT_ALGORITHM_AUTO, 0, &outcome);
            printf("knight-tour %dx%d %s from [0,0], auto, in process (%s)\t%.1f\t-\t-\tms\tlower\n", sizes[i][0],
                   sizes[i][1], closed ? "closed" : "open", outcome == KT_FOUND ? "found" : "none exists", ms);
        }
    }
    return 0;
}
