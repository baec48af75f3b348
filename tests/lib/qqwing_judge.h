/* qqwing (Debian's Sudoku generator and solver, a program we did not write) as the independent judge
 * of the Sudoku tests: it generates 9 x 9 puzzles and counts their solutions at test time. Header-only
 * so that each test binary stays one file; every function asserts that qqwing ran. */
#ifndef PUZZLED_TESTS_QQWING_JUDGE_H
#define PUZZLED_TESTS_QQWING_JUDGE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { QQWING_LINE = 128 };

/* `count` puzzles of `difficulty` (simple, easy, intermediate, expert, any) as 81-character lines with
 * `.` for blanks, in a malloc'd array of QQWING_LINE-byte rows. */
static inline char (*qqwing_generate(int count, const char *difficulty))[QQWING_LINE] {
    char command[160];
    /* 300 s: a qqwing that hangs (40 expert puzzles take it a few seconds) */
    snprintf(command, sizeof command, "timeout 300 qqwing --generate %d --difficulty %s --one-line", count, difficulty);
    FILE *out = popen(command, "r");
    cr_assert_not_null(out, "cannot run qqwing (apt-get install qqwing)");
    char(*puzzles)[QQWING_LINE] = calloc((size_t)count, QQWING_LINE);
    int read = 0;
    while (read < count && fgets(puzzles[read], QQWING_LINE, out) != NULL) {
        puzzles[read][strcspn(puzzles[read], "\r\n")] = '\0';
        if (strlen(puzzles[read]) == 81) read++;
    }
    cr_assert_eq(pclose(out), 0, "qqwing failed");
    cr_assert_eq(read, count, "qqwing gave %d puzzles, not %d", read, count);
    return puzzles;
}

/* Runs `qqwing <options>` on the puzzles (one per line) and returns its standard output (malloc'd). */
static inline char *qqwing_run(const char (*puzzles)[QQWING_LINE], int count, const char *options) {
    char path[] = "/tmp/qqwing-judge-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *in = fdopen(fd, "w");
    for (int k = 0; k < count; k++) fprintf(in, "%s\n", puzzles[k]);
    fclose(in);
    char command[200];
    /* 300 s: a qqwing that hangs; the largest judging asked of it takes about 6 s of CPU */
    snprintf(command, sizeof command, "timeout 300 qqwing %s < %s", options, path);
    FILE *out = popen(command, "r");
    cr_assert_not_null(out);
    size_t size = 0, used = 0;
    char *text = NULL;
    for (;;) {
        if (used + 4096 > size) text = realloc(text, size = 2 * size + 4096);
        size_t got = fread(text + used, 1, size - used - 1, out);
        if (got == 0) break;
        used += got;
    }
    text[used] = '\0';
    pclose(out);
    unlink(path);
    return text;
}

/* qqwing's solution count for each of `count` 81-character puzzles (`.` or `0` blanks), written to
 * `counts`. Per puzzle qqwing prints "The solution to the puzzle is unique.", "There are N solutions
 * to the puzzle.", "There are no solutions to the puzzle." or, when givens conflict, "Puzzle is not
 * possible." (other lines, such as the solution itself, are skipped). */
static inline void qqwing_count(const char (*puzzles)[QQWING_LINE], int count, long *counts) {
    char *text = qqwing_run(puzzles, count, "--solve --count-solutions --one-line");
    int seen = 0;
    for (char *line = strtok(text, "\n"); line != NULL && seen < count; line = strtok(NULL, "\n")) {
        long n;
        if (strstr(line, "is unique") != NULL) {
            counts[seen++] = 1;
        } else if (sscanf(line, "There are %ld solutions", &n) == 1) {
            counts[seen++] = n;
        } else if (strstr(line, "There are no solutions") != NULL || strstr(line, "is not possible") != NULL) {
            counts[seen++] = 0;
        }
    }
    free(text);
    cr_assert_eq(seen, count, "qqwing answered for %d puzzles, not %d", seen, count);
}

/* qqwing's difficulty ("Simple", "Easy", "Intermediate", "Expert") of each puzzle, from its
 * "Difficulty: X" statistics line, copied into `difficulties` (rows of 16 bytes). */
static inline void qqwing_rate(const char (*puzzles)[QQWING_LINE], int count, char (*difficulties)[16]) {
    char *text = qqwing_run(puzzles, count, "--solve --stats --one-line");
    int seen = 0;
    for (char *line = strtok(text, "\n"); line != NULL && seen < count; line = strtok(NULL, "\n")) {
        if (sscanf(line, "Difficulty: %15s", difficulties[seen]) == 1) seen++;
    }
    free(text);
    cr_assert_eq(seen, count, "qqwing rated %d puzzles, not %d", seen, count);
}

#endif
