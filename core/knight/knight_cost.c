/* The knight's tour cost model: timed runs of the real constructions and of fresh memory (see
 * knight_cost.h). */
#include "core/knight/knight_cost.h"

#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/common/growth_fit.h"

/* A timed tour of an open rows x cols board from [0, 0] by "auto"; `failed` is set when memory ran out. */
typedef struct {
    int rows, cols;
    bool failed;
} tour_run;

static void build_tour(void *arg) {
    tour_run *run = arg;
    kt_request request = {.rows = run->rows, .cols = run->cols, .algorithm = KT_ALGORITHM_AUTO};
    deadline none = deadline_none();
    kt_result result;
    if (knight_tour_find(&request, &none, &result) != CORE_OK) {
        run->failed = true;
        return;
    }
    kt_result_free(&result);
}

/* A timed mapping of KNIGHT_COST_FRESH_BYTES, each page touched once; `failed` is set when the kernel
 * gave none. */
typedef struct {
    long page_size;
    bool failed;
} fresh_run;

static void touch_fresh_memory(void *arg) {
    fresh_run *run = arg;
    volatile unsigned char *fresh =
        mmap(NULL, KNIGHT_COST_FRESH_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fresh == MAP_FAILED) {
        run->failed = true;
        return;
    }
    for (long at = 0; at < KNIGHT_COST_FRESH_BYTES; at += run->page_size) fresh[at] = 1;
    munmap((void *)fresh, KNIGHT_COST_FRESH_BYTES);
}

/* The fastest of KNIGHT_COST_RUNS tours, a square; HUGE_VAL when memory ran out in any (the board is
 * then left out). */
static double time_construction(int rows, int cols) {
    tour_run run = {.rows = rows, .cols = cols};
    double fastest = growth_time_fastest(build_tour, &run, KNIGHT_COST_RUNS);
    return run.failed ? HUGE_VAL : fastest / ((double)rows * cols);
}

/* The fastest of KNIGHT_COST_RUNS mappings, a byte; 0 when the kernel gave none in any. */
static double time_fresh_memory(void) {
    long page_size = sysconf(_SC_PAGESIZE);
    fresh_run run = {.page_size = page_size > 0 ? page_size : 4096};
    double fastest = growth_time_fastest(touch_fresh_memory, &run, KNIGHT_COST_RUNS);
    return run.failed ? 0 : fastest / KNIGHT_COST_FRESH_BYTES;
}

knight_cost knight_cost_calibrate(void) {
    double blocks = time_construction(KNIGHT_COST_BLOCKS_SIDE, KNIGHT_COST_BLOCKS_SIDE);
    double strip = time_construction(3, KNIGHT_COST_STRIP_LENGTH);
    double construction = blocks < strip ? blocks : strip;
    return (knight_cost){.construction_seconds = construction < HUGE_VAL ? construction : 0,
                         .fresh_seconds = time_fresh_memory() * (double)KNIGHT_COST_BYTES_PER_SQUARE};
}

bool knight_cost_estimated(const kt_request *request) {
    return request->algorithm == KT_ALGORITHM_AUTO &&
           (uint64_t)request->rows * (uint64_t)request->cols >= KNIGHT_COST_MIN_SQUARES &&
           knight_tour_impossibility(request) == NULL;
}

double knight_cost_seconds(const knight_cost *cost, uint64_t squares) {
    return (double)squares * (cost->construction_seconds + cost->fresh_seconds);
}

uint64_t knight_cost_largest_squares(const knight_cost *cost, double seconds, uint64_t most) {
    double per_square = cost->construction_seconds + cost->fresh_seconds;
    if (!(per_square > 0) || seconds / per_square >= (double)most) return most;
    uint64_t fits = seconds >= per_square ? (uint64_t)floor(seconds / per_square) : 0;
    /* the division's rounding either way: the answer is the model's own inverse */
    while (fits > 0 && knight_cost_seconds(cost, fits) > seconds) fits--;
    while (fits < most && knight_cost_seconds(cost, fits + 1) <= seconds) fits++;
    return fits;
}
