/* Benchmark of 9 x 9 Sudoku solving against the fastest published solver (tdoku, loaded from
 * TDOKU_DIR, see tdoku_peer.h) and against qqwing (Debian's), on the public collections under
 * bench/sudoku/data/ (README.md there names their sources). Every puzzle is solved and proved
 * unique (two solutions asked for, as /sudoku/solve does); every answer is checked: complete,
 * consistent with the givens, unique; tdoku's count must be 1.
 *
 * The machine may be shared, so the contenders run interleaved: each round times tdoku, our band
 * search in process, our general search (the one before it) and, with PUZZLED_URL, the whole
 * collection posted to bulk /sudoku/solve twice, answered in NDJSON and in text lines (Accept:
 * text/plain); each keeps its best round (SUDOKU_BENCH_ROUNDS, default
 * 5). In process, both sides are timed in this thread's CPU time, so that the other programs of a
 * busy machine count less; through HTTP, curl's time_total (wall clock: what a client sees, all the
 * server's threads at work, but also every other program's load) and, with PUZZLED_PID, the CPU time
 * the server spent (all its threads; the robust figure on a busy machine). qqwing's time is its CPU
 * time.
 * Also: generating unique puzzles per difficulty against qqwing, and generating and solving our
 * 16 x 16 and 25 x 25 (the general search, which sudoku_solve keeps for them).
 * Prints TSV rows: measure, ours, peer, peer value, unit, which is better; solving in microseconds per
 * puzzle, each HTTP figure against tdoku's, the server's CPU also against our solver in process (the
 * server's CPU is read in clock ticks of 10 ms, so it is the mean of the rounds, not the best). With
 * the argument `curve`: the cost per puzzle by difficulty (our search nodes, in power-of-two buckets),
 * ours and tdoku's, as bench/lib/curve.h rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../lib/curve.h"
#include "core/sudoku/sudoku_generate.h"
#include "core/sudoku/sudoku_solver.h"
#include "core/sudoku/sudoku_text.h"
#include "tdoku_peer.h"

enum { CELLS = 81, LINE_MAX_BYTES = 256, DEFAULT_ROUNDS = 5 };

typedef struct collection {
    const char *file; /* under the data folder */
    const char *name;
    sudoku_grid *grids;
    char (*lines)[CELLS + 1];
    int count;
} collection;

static collection collections[] = {
    {"royle_17_clue.txt", "Royle's 17-clue puzzles (1 in 10)", NULL, NULL, 0},
    {"forum_hardest_1905_11.txt", "the forum's hardest 1905 (11+, 1 in 10)", NULL, NULL, 0},
    {"norvig_top95.txt", "Norvig's top95", NULL, NULL, 0},
};
enum { COLLECTIONS = sizeof collections / sizeof collections[0] };

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double rusage_seconds(const struct rusage *usage) {
    return (double)usage->ru_utime.tv_sec + (double)usage->ru_utime.tv_usec / 1e6 + (double)usage->ru_stime.tv_sec +
           (double)usage->ru_stime.tv_usec / 1e6;
}

/* CPU seconds of a shell command run to completion (its children's user and system time), or -1
 * when it failed. */
static double command_cpu_seconds(const char *command) {
    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    if (system(command) != 0) return -1;
    getrusage(RUSAGE_CHILDREN, &after);
    return rusage_seconds(&after) - rusage_seconds(&before);
}

static int env_count(const char *name, int dflt) {
    const char *text = getenv(name);
    return text != NULL && atoi(text) > 0 ? atoi(text) : dflt;
}

static void fail(const char *what, const collection *set, int index) {
    fprintf(stderr, "bench_sudoku: %s: %s, puzzle %d: %s\n", what, set->name, index + 1,
            index >= 0 ? set->lines[index] : "");
    exit(1);
}

static bool load(collection *set, const char *dir) {
    char path[4096], line[LINE_MAX_BYTES];
    snprintf(path, sizeof path, "%s/%s", dir, set->file);
    FILE *in = fopen(path, "r");
    if (in == NULL) return false;
    int capacity = 0;
    while (fgets(line, sizeof line, in) != NULL) {
        size_t len = strcspn(line, "\r\n"), bad;
        if (len != CELLS) continue;
        if (set->count == capacity) {
            capacity = capacity ? 2 * capacity : 1024;
            set->grids = realloc(set->grids, (size_t)capacity * sizeof *set->grids);
            set->lines = realloc(set->lines, (size_t)capacity * sizeof *set->lines);
        }
        if (sudoku_parse(line, len, &set->grids[set->count], &bad) != SUDOKU_TEXT_OK) continue;
        sudoku_format(&set->grids[set->count], set->lines[set->count]);
        set->count++;
    }
    fclose(in);
    return set->count > 0;
}

static bool checked_unique(const sudoku_result *result, const sudoku_grid *puzzle) {
    return result->solutions == 1 && result->exhausted && sudoku_grid_is_solution(&result->first) &&
           sudoku_grid_extends(&result->first, puzzle);
}

typedef core_status search_fn(sudoku_solver *, const sudoku_grid *, const sudoku_search *, sudoku_result *);

/* Seconds to solve and prove unique the whole collection with `search`; checks every answer. Each
 * puzzle's node count goes to nodes[] when it is not NULL. */
static double time_ours(const collection *set, sudoku_solver *solver, search_fn *search, uint64_t *nodes) {
    static const sudoku_search unique = {.solution_limit = 2};
    sudoku_result result;
    bool all_unique = true;
    double start = cpu_seconds();
    for (int k = 0; k < set->count; k++) {
        search(solver, &set->grids[k], &unique, &result);
        all_unique = all_unique && result.solutions == 1 && result.exhausted;
        if (nodes != NULL) nodes[k] = result.nodes;
    }
    double seconds = cpu_seconds() - start;
    if (!all_unique) fail("not every answer unique", set, -1);
    for (int k = 0; k < set->count; k++) {
        search(solver, &set->grids[k], &unique, &result);
        if (!checked_unique(&result, &set->grids[k])) fail("wrong answer", set, k);
    }
    return seconds;
}

static double time_tdoku(const collection *set, tdoku_solve_fn *tdoku) {
    char solution[CELLS + 1];
    size_t guesses, wrong = 0;
    double start = cpu_seconds();
    for (int k = 0; k < set->count; k++) wrong += tdoku(set->lines[k], 2, 0, solution, &guesses) != 1;
    double seconds = cpu_seconds() - start;
    if (wrong != 0) fail("tdoku found a count other than 1", set, -1);
    return seconds;
}

/* The answers of bulk /sudoku/solve: NDJSON lines, or text lines (Accept: text/plain). */
typedef enum bulk_output { OUTPUT_NDJSON, OUTPUT_TEXT, OUTPUTS } bulk_output;
static const char *const output_names[OUTPUTS] = {"NDJSON", "text"};
static const char *const output_accepts[OUTPUTS] = {"application/x-ndjson", "text/plain"};

/* Checks one answer line of bulk /sudoku/solve against puzzle `index`: in NDJSON, its line number,
 * "unique": true and the solution; in text, the solution alone (a unique puzzle's line). */
static bool answer_checks(const collection *set, int index, const char *answer, bulk_output output) {
    const char *solution = answer;
    if (output == OUTPUT_NDJSON) {
        char expected[32];
        snprintf(expected, sizeof expected, "{\"line\":%d,", index + 1);
        solution = strstr(answer, "\"solution\":\"");
        bool claims_unique = strstr(answer, "\"unique\":true") != NULL;
        if (strncmp(answer, expected, strlen(expected)) != 0 || solution == NULL || !claims_unique) return false;
        solution += strlen("\"solution\":\"");
    } else if (strcspn(answer, "\r\n") != CELLS) {
        return false;
    }
    sudoku_grid grid;
    size_t bad;
    return sudoku_parse(solution, CELLS, &grid, &bad) == SUDOKU_TEXT_OK && sudoku_grid_is_solution(&grid) &&
           sudoku_grid_extends(&grid, &set->grids[index]);
}

/* The CPU seconds the server (PUZZLED_PID, set by bench/run.sh) has used, all its threads, those
 * ended included, in clock ticks (10 ms); -1 when unknown. */
static double server_cpu_seconds(void) {
    const char *pid = getenv("PUZZLED_PID");
    char path[64], text[1024];
    if (pid == NULL) return -1;
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *in = fopen(path, "r");
    size_t len = in != NULL ? fread(text, 1, sizeof text - 1, in) : 0;
    if (in != NULL) fclose(in);
    text[len] = '\0';
    const char *after_name = strrchr(text, ')'); /* then: state and 10 fields before utime, stime */
    unsigned long user, system_time;
    if (after_name == NULL ||
        sscanf(after_name + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &user, &system_time) != 2)
        return -1;
    return (double)(user + system_time) / (double)sysconf(_SC_CLK_TCK);
}

/* Seconds (curl's time_total) to post the collection to bulk /sudoku/solve, answered in `output`, or
 * -1 without a server; checks every answer and their order. The server's CPU seconds for it go to
 * *server_cpu (-1 when unknown). */
static double time_http(const collection *set, const char *url, const char *puzzles_path, bulk_output output,
                        double *server_cpu) {
    char answers_path[] = "/tmp/sudoku-bench-answers-XXXXXX";
    int fd = mkstemp(answers_path);
    if (fd < 0) return -1;
    close(fd);
    char command[8192];
    snprintf(command, sizeof command,
             "curl -sS -o %s -w '%%{time_total}' -H 'Content-Type: text/plain' -H 'Accept: %s' --data-binary @%s "
             "%s/sudoku/solve",
             answers_path, output_accepts[output], puzzles_path, url);
    double cpu_before = server_cpu_seconds();
    FILE *curl = popen(command, "r");
    double seconds = -1;
    if (curl == NULL || fscanf(curl, "%lf", &seconds) != 1) seconds = -1;
    if (curl != NULL && pclose(curl) != 0) seconds = -1;
    *server_cpu = cpu_before >= 0 ? server_cpu_seconds() - cpu_before : -1;
    FILE *answers = fopen(answers_path, "r");
    char line[LINE_MAX_BYTES * 2];
    int index = 0;
    while (seconds >= 0 && answers != NULL && fgets(line, sizeof line, answers) != NULL) {
        if (index >= set->count || !answer_checks(set, index, line, output)) fail("wrong answer over HTTP", set, index);
        index++;
    }
    if (answers != NULL) fclose(answers);
    unlink(answers_path);
    if (seconds >= 0 && index != set->count) fail("answers missing over HTTP", set, index);
    return seconds;
}

static void write_puzzles(const collection *set, const char *path) {
    FILE *out = fopen(path, "w");
    for (int k = 0; out != NULL && k < set->count; k++) fprintf(out, "%s\n", set->lines[k]);
    if (out != NULL) fclose(out);
}

static double qqwing_seconds(const char *puzzles_path) {
    char command[4200];
    snprintf(command, sizeof command, "qqwing --solve --one-line < %s > /dev/null", puzzles_path);
    return command_cpu_seconds(command);
}

static double best(double a, double b) { return a < 0 ? b : b < 0 ? a : a < b ? a : b; }

/* A row in microseconds per puzzle (lower is better) against `peer`'s, when both are known. */
static void print_row(const collection *set, const char *how, double ours, const char *peer, double peer_seconds) {
    if (ours <= 0) return;
    printf("sudoku: solve and prove unique %d of %s, %s\t%.2f\t%s\t", set->count, set->name, how,
           ours / set->count * 1e6, peer_seconds > 0 ? peer : "-");
    if (peer_seconds > 0) {
        printf("%.2f\tus/puzzle\tlower\n", peer_seconds / set->count * 1e6);
    } else {
        printf("-\tus/puzzle\tlower\n");
    }
}

static void bench_collection(collection *set, sudoku_solver *solver, tdoku_solve_fn *tdoku, int rounds) {
    const char *url = getenv("PUZZLED_URL");
    char puzzles_path[] = "/tmp/sudoku-bench-puzzles-XXXXXX";
    int fd = mkstemp(puzzles_path);
    if (fd < 0) return;
    close(fd);
    write_puzzles(set, puzzles_path);
    double ours = -1, general = -1, peer = -1, http[OUTPUTS] = {-1, -1}, http_cpu[OUTPUTS] = {0, 0};
    for (int round = 0; round < rounds; round++) {
        if (tdoku != NULL) peer = best(peer, time_tdoku(set, tdoku));
        ours = best(ours, time_ours(set, solver, sudoku_solve, NULL));
        if (round == 0) general = time_ours(set, solver, sudoku_solve_general, NULL);
        for (int output = 0; url != NULL && output < OUTPUTS; output++) {
            double cpu;
            http[output] = best(http[output], time_http(set, url, puzzles_path, output, &cpu));
            http_cpu[output] = http_cpu[output] < 0 || cpu < 0 ? -1 : http_cpu[output] + cpu / rounds;
        }
    }
    double qqwing = qqwing_seconds(puzzles_path);
    unlink(puzzles_path);
    const char *tdoku_name = "tdoku in process (limit 2, 1 thread)";
    print_row(set, "in process (1 thread)", ours, tdoku_name, peer);
    for (int output = 0; output < OUTPUTS; output++) {
        char how[160];
        snprintf(how, sizeof how, "through HTTP in bulk (text/plain in, %s out), wall clock", output_names[output]);
        print_row(set, how, http[output], tdoku_name, peer);
        snprintf(how, sizeof how, "through HTTP in bulk (%s out), the server's CPU time", output_names[output]);
        print_row(set, how, http_cpu[output], tdoku_name, peer);
        print_row(set, how, http_cpu[output], "puzzled in process (1 thread)", ours);
    }
    print_row(set, "in process, the general search (before the band search)", general, tdoku_name, peer);
    print_row(set, "in process", ours, "qqwing --solve (one pass)", qqwing);
}

static void bench_generating(int count) {
    static const char *const names[] = {"simple", "easy", "intermediate", "expert"};
    deadline none = deadline_none();
    for (int difficulty = SUDOKU_SIMPLE; difficulty <= SUDOKU_EXPERT; difficulty++) {
        double start = cpu_seconds();
        for (int k = 0; k < count; k++) {
            rng random;
            rng_seed_u64(&random, (uint64_t)k + 1);
            sudoku_generated out;
            sudoku_generate(3, difficulty, SUDOKU_SYMMETRY_NONE, &random, &none, &out);
        }
        double ours = cpu_seconds() - start;
        char command[160];
        snprintf(command, sizeof command, "qqwing --generate %d --difficulty %s --symmetry none > /dev/null", count,
                 names[difficulty]);
        double peer = command_cpu_seconds(command);
        printf(
            "sudoku: generate %d unique 9x9 %s puzzles, in process\t%.1f\tqqwing --generate\t%.1f\tpuzzles/s\thigher\n",
            count, names[difficulty], count / ours, peer > 0 ? count / peer : 0);
    }
    for (int box = 4; box <= 5; box++) {
        enum { LARGE = 5 };
        static const sudoku_search unique = {.solution_limit = 2};
        sudoku_solver *solver = sudoku_solver_new(box);
        double generating = 0, solving = 0;
        for (int k = 0; k < LARGE; k++) {
            rng random;
            rng_seed_u64(&random, (uint64_t)k + 1);
            sudoku_generated out;
            double start = cpu_seconds();
            sudoku_generate(box, SUDOKU_ANY_DIFFICULTY, SUDOKU_SYMMETRY_NONE, &random, &none, &out);
            double generated = cpu_seconds();
            sudoku_result result;
            sudoku_solve(solver, &out.puzzle, &unique, &result);
            solving += cpu_seconds() - generated;
            generating += generated - start;
            if (!checked_unique(&result, &out.puzzle))
                fprintf(stderr, "bench_sudoku: a %dx%d puzzle not unique\n", box * box, box * box);
        }
        sudoku_solver_free(solver);
        printf("sudoku: generate a unique %dx%d puzzle (mean of %d), in process\t%.0f\t-\t-\tms\tlower\n", box * box,
               box * box, LARGE, generating / LARGE * 1e3);
        printf("sudoku: solve and prove unique a generated %dx%d puzzle (mean of %d), in process\t%.3f\t-\t-\tms"
               "\tlower\n",
               box * box, box * box, LARGE, solving / LARGE * 1e3);
    }
}

/* Cost per puzzle by difficulty: every puzzle of every collection timed alone (the best of a few
 * turns, ours and tdoku's alternating, so that a busy machine's pauses drop out), averaged per bucket
 * of our node count (1, 2, 3-4, 5-8, ...; the bucket's upper bound is the size). */
static void curve_by_difficulty(sudoku_solver *solver, tdoku_solve_fn *tdoku) {
    enum { BUCKETS = 24, TURNS = 3 };
    double ours[BUCKETS] = {0}, peer[BUCKETS] = {0};
    int puzzles[BUCKETS] = {0};
    static const sudoku_search unique = {.solution_limit = 2};
    char solution[CELLS + 1];
    size_t guesses;
    for (int c = 0; c < COLLECTIONS; c++) {
        for (int k = 0; k < collections[c].count; k++) {
            sudoku_result result;
            double ours_best = -1, peer_best = -1;
            for (int turn = 0; turn < TURNS; turn++) {
                double start = curve_now_seconds();
                sudoku_solve(solver, &collections[c].grids[k], &unique, &result);
                double mid = curve_now_seconds();
                if (tdoku != NULL) tdoku(collections[c].lines[k], 2, 0, solution, &guesses);
                ours_best = best(ours_best, mid - start);
                peer_best = best(peer_best, curve_now_seconds() - mid);
            }
            int bucket = 0;
            while (bucket < BUCKETS - 1 && (UINT64_C(1) << bucket) < result.nodes) bucket++;
            ours[bucket] += ours_best;
            peer[bucket] += peer_best;
            puzzles[bucket]++;
        }
    }
    for (int bucket = 0; bucket < BUCKETS; bucket++) {
        if (puzzles[bucket] == 0) continue;
        curve_point("sudoku", (double)(UINT64_C(1) << bucket), ours[bucket] / puzzles[bucket],
                    tdoku != NULL ? peer[bucket] / puzzles[bucket] : -1, "tdoku");
    }
}

int main(int argc, char **argv) {
    const char *dir = getenv("SUDOKU_BENCH_DATA") != NULL ? getenv("SUDOKU_BENCH_DATA") : "bench/sudoku/data";
    for (int c = 0; c < COLLECTIONS; c++) {
        if (!load(&collections[c], dir)) {
            fprintf(stderr, "bench_sudoku: cannot read %s/%s (run from the top of the repository)\n", dir,
                    collections[c].file);
            return 1;
        }
    }
    tdoku_solve_fn *tdoku = tdoku_load();
    sudoku_solver *solver = sudoku_solver_new(3);
    if (curve_mode(argc, argv)) {
        curve_by_difficulty(solver, tdoku);
    } else {
        int rounds = env_count("SUDOKU_BENCH_ROUNDS", DEFAULT_ROUNDS);
        for (int c = 0; c < COLLECTIONS; c++) bench_collection(&collections[c], solver, tdoku, rounds);
        if (getenv("SUDOKU_BENCH_SOLVE_ONLY") == NULL) bench_generating(env_count("SUDOKU_BENCH_GENERATE", 100));
    }
    sudoku_solver_free(solver);
    return 0;
}
