/* Benchmark of Sudoku against qqwing (Debian's C++ generator and solver), both in process and
 * single-threaded, CPU time of each (so the other engineers' load on a shared machine counts less):
 *  - solving the same expert puzzles that qqwing generated (SUDOKU_BENCH_PUZZLES, default 10000);
 *  - generating puzzles with one solution at each difficulty (SUDOKU_BENCH_GENERATE, default 100 of
 *    each; qqwing's simple puzzles take it about 0.2 s each);
 *  - our 16 x 16 and 25 x 25 puzzles, which qqwing cannot make.
 * Prints TSV rows: measure, ours, peer, peer value, unit, which is better. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/sudoku/sudoku_generate.h"
#include "core/sudoku/sudoku_solver.h"
#include "core/sudoku/sudoku_text.h"

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double children_cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_CHILDREN, &usage);
    return (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec +
           usage.ru_stime.tv_usec / 1e6;
}

/* CPU seconds of a shell command (run to completion), or -1 when it failed. */
static double command_cpu_seconds(const char *command) {
    double before = children_cpu_seconds();
    if (system(command) != 0) return -1;
    return children_cpu_seconds() - before;
}

static int env_count(const char *name, int dflt) {
    const char *text = getenv(name);
    return text != NULL && atoi(text) > 0 ? atoi(text) : dflt;
}

static void bench_solving(int count) {
    char path[] = "/tmp/sudoku-bench-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return;
    close(fd);
    char command[256];
    snprintf(command, sizeof command, "qqwing --generate %d --difficulty expert --one-line > %s", count, path);
    if (system(command) != 0) {
        fprintf(stderr, "bench_sudoku: qqwing is needed (apt-get install qqwing)\n");
        unlink(path);
        return;
    }
    sudoku_grid *puzzles = malloc((size_t)count * sizeof *puzzles);
    FILE *in = fopen(path, "r");
    char line[128];
    int read = 0;
    while (read < count && fgets(line, sizeof line, in) != NULL) {
        size_t bad;
        if (sudoku_parse(line, strcspn(line, "\r\n"), &puzzles[read], &bad) == SUDOKU_TEXT_OK) read++;
    }
    fclose(in);
    snprintf(command, sizeof command, "qqwing --solve --one-line < %s > /dev/null", path);
    double peer = command_cpu_seconds(command);
    sudoku_solver *solver = sudoku_solver_new(3);
    for (uint64_t limit = 1; limit <= 2; limit++) {
        sudoku_search search = {.solution_limit = limit};
        sudoku_result result;
        int solved = 0;
        double start = cpu_seconds();
        for (int k = 0; k < read; k++) {
            sudoku_solve(solver, &puzzles[k], &search, &result);
            solved += result.solutions == 1;
        }
        double ours = cpu_seconds() - start;
        printf("sudoku: solve %d qqwing expert 9x9 puzzles%s, in process (%d %s)\t%.0f\tqqwing --solve\t%.0f\tpuzzles/s\t"
               "higher\n",
               read, limit == 2 ? " and prove each unique" : "", solved, limit == 2 ? "unique" : "solved", read / ours,
               peer > 0 ? read / peer : 0);
    }
    sudoku_solver_free(solver);
    free(puzzles);
    unlink(path);
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
        printf("sudoku: generate %d unique 9x9 %s puzzles, in process\t%.1f\tqqwing --generate\t%.1f\tpuzzles/s\thigher\n",
               count, names[difficulty], count / ours, peer > 0 ? count / peer : 0);
    }
    for (int box = 4; box <= 5; box++) {
        enum { LARGE = 5 };
        double start = cpu_seconds();
        for (int k = 0; k < LARGE; k++) {
            rng random;
            rng_seed_u64(&random, (uint64_t)k + 1);
            sudoku_generated out;
            sudoku_generate(box, SUDOKU_ANY_DIFFICULTY, SUDOKU_SYMMETRY_NONE, &random, &none, &out);
        }
        printf("sudoku: generate a unique %dx%d puzzle (mean of %d), in process\t%.0f\t-\t-\tms\tlower\n", box * box,
               box * box, LARGE, (cpu_seconds() - start) / LARGE * 1e3);
    }
}

int main(void) {
    bench_solving(env_count("SUDOKU_BENCH_PUZZLES", 10000));
    bench_generating(env_count("SUDOKU_BENCH_GENERATE", 100));
    return 0;
}
