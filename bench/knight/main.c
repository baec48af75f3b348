/* Benchmark of the knight's tour core in process: the plain textbook backtracking against "auto" on
 * 5x5 .. 8x8 boards from the corner, open tours, each with a 10 s cap (a capped run reports the cap and
 * says so in the measure's name); "auto" alone on large boards, open and closed; and open tours of
 * 4 x 1001 and 4 x 1,000,000 from the corner and from the middle of the top row, against Warnsdorff's
 * rule alone (linear too, but it proves nothing when it gets stuck, and the name says when it did).
 * Prints TSV rows: measure, ours, peer, peer value, unit, which is better. With `curve`: the scaling
 * curve of open tours from the corner of n x n boards, n = 10 .. 2000, by squares, against Warnsdorff's
 * rule alone (bench/lib/curve.h; a point where Warnsdorff got stuck is left out of its curve). */
#include <stdio.h>
#include <time.h>

#include "../lib/curve.h"

#include "core/knight/knight_tour.h"

#define BACKTRACKING_CAP_MS 10000

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Milliseconds to answer; *found tells whether a tour was found, *timed_out whether the cap ended it. */
static double time_tour(int rows, int cols, int start_col, bool closed, kt_algorithm algorithm, uint64_t cap_ms,
                        bool *found, bool *timed_out) {
    kt_request request = {.rows = rows, .cols = cols, .start_col = start_col, .closed = closed, .algorithm = algorithm};
    deadline limit = cap_ms ? deadline_after_ms(cap_ms) : deadline_none();
    double start = now_ms();
    kt_result result;
    core_status status = knight_tour_find(&request, &limit, &result);
    double elapsed = now_ms() - start;
    *found = status == CORE_OK && result.outcome == KT_FOUND;
    *timed_out = status == CORE_DEADLINE;
    if (status == CORE_OK) kt_result_free(&result);
    return elapsed;
}

/* Seconds for an open tour of n x n from the corner: the median of as many runs as
 * curve_repetitions says; negative when `algorithm` found none. */
static double curve_seconds(int n, kt_algorithm algorithm) {
    double times[5];
    int repetitions = 5;
    for (int r = 0; r < repetitions; r++) {
        bool found, timed_out;
        times[r] = time_tour(n, n, 0, false, algorithm, 0, &found, &timed_out) / 1e3;
        if (!found) return -1;
        if (r == 0) repetitions = curve_repetitions(times[0]);
    }
    return curve_median(times, (size_t)repetitions);
}

static void curve(void) {
    const int sides[] = {10, 20, 50, 100, 200, 500, 1000, 2000};
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        double ours = curve_seconds(sides[i], KT_ALGORITHM_AUTO);
        if (ours < 0) abort(); /* auto always finds the open tour of a board this size */
        curve_point("knight", (double)sides[i] * sides[i], ours, curve_seconds(sides[i], KT_ALGORITHM_WARNSDORFF),
                    "Warnsdorff's rule alone");
    }
}

int main(int argc, char **argv) {
    if (curve_mode(argc, argv)) {
        curve();
        return 0;
    }
    for (int n = 5; n <= 8; n++) {
        bool auto_found, plain_found, auto_timed_out, plain_timed_out;
        double ours = time_tour(n, n, 0, false, KT_ALGORITHM_AUTO, 0, &auto_found, &auto_timed_out);
        double plain =
            time_tour(n, n, 0, false, KT_ALGORITHM_BACKTRACKING, BACKTRACKING_CAP_MS, &plain_found, &plain_timed_out);
        const char *peer = plain_timed_out ? "plain backtracking (TIMED OUT at the 10 s cap)" : "plain backtracking";
        printf("knight-tour %dx%d open from [0,0], auto%s\t%.3f\t%s\t%.3f\tms\tlower\n", n, n,
               auto_found ? "" : " (NOT FOUND)", ours, peer, plain);
    }
    const int sizes[][2] = {{1000, 1000}, {2000, 2000}, {1001, 1001}, {3, 1333333}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int closed = 0; closed <= 1; closed++) {
            bool found, timed_out;
            double ms = time_tour(sizes[i][0], sizes[i][1], 0, closed, KT_ALGORITHM_AUTO, 0, &found, &timed_out);
            printf("knight-tour %dx%d %s from [0,0], auto, in process (%s)\t%.1f\t-\t-\tms\tlower\n", sizes[i][0],
                   sizes[i][1], closed ? "closed" : "open", found ? "found" : "none exists", ms);
        }
    }
    const int four_rows[] = {1001, 1000000};
    for (size_t i = 0; i < sizeof four_rows / sizeof four_rows[0]; i++) {
        for (int start_col = 0; start_col <= four_rows[i] / 2; start_col += four_rows[i] / 2) {
            bool ours_found, peer_found, timed_out;
            double ours = time_tour(4, four_rows[i], start_col, false, KT_ALGORITHM_AUTO, 0, &ours_found, &timed_out);
            double peer =
                time_tour(4, four_rows[i], start_col, false, KT_ALGORITHM_WARNSDORFF, 0, &peer_found, &timed_out);
            printf("knight-tour 4x%d open from [0,%d], auto, in process (%s)\t%.1f\t%s\t%.1f\tms\tlower\n",
                   four_rows[i], start_col, ours_found ? "found" : "NOT FOUND", ours,
                   peer_found ? "Warnsdorff alone (found)" : "Warnsdorff alone (STUCK: no tour)", peer);
        }
    }
    return 0;
}
