/* Loads tdoku's shared library with dlopen (see tdoku_peer.h). */
#include "tdoku_peer.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

tdoku_solve_fn *tdoku_load(void) {
    const char *dir = getenv("TDOKU_DIR");
    if (dir == NULL || *dir == '\0') {
        fprintf(stderr, "bench_sudoku: TDOKU_DIR is not set: the rows against tdoku are skipped "
                        "(bench/sudoku/README.md says how to build it)\n");
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/libtdoku_shared.so", dir);
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "bench_sudoku: no tdoku in TDOKU_DIR (%s): the rows against tdoku are skipped\n", dlerror());
        return NULL;
    }
    tdoku_solve_fn *solve = (tdoku_solve_fn *)dlsym(library, "TdokuSolverDpllTriadSimd");
    if (solve == NULL) fprintf(stderr, "bench_sudoku: %s has no TdokuSolverDpllTriadSimd\n", path);
    return solve; /* the library stays loaded for the whole run */
}
