/* The calibrated cost models and the refusal of hopeless work (see api/cost_estimates.h). */
#include "api/cost_estimates.h"

#include <math.h>
#include <stdio.h>

#include "api/permutations/rank_estimate.h"

/* Written once by api_calibrate_costs() on the main thread before the server's threads exist; only
 * read afterwards. */
static queens_cost queens_model;
static knight_cost knight_model;
static bool calibrated;
static perm_cost rank_model;
static items_cost items_model;
static bool rank_calibrated;

/* The rank and unrank models (core/permutations/perm_cost.h, api/arrangements/items_cost.h), and their
 * line on stderr. */
static void calibrate_rank_costs(void) {
    rank_calibrated = perm_cost_calibrate(&rank_model) && items_cost_calibrate(&items_model);
    if (!rank_calibrated) {
        fprintf(stderr, "puzzled: no memory to time ranks at start-up; no rank or unrank is refused as hopeless\n");
        return;
    }
    double largest = rank_model.one_thread.size;
    rank_work million = {1000000, 1000000, 0}, hundred_million = {100000000, 100000000, 0};
    fprintf(stderr,
            "puzzled: ranks timed at start-up (%d to %d distinct items, one core): %g items in %.1f ms, "
            "exponent %.2f; their JSON body read in %.1f ms (exponent %.2f), their array written in %.1f ms; "
            "on %u cores a rank of 10^6 items is estimated at %.2g s, of 10^8 at %.2g s\n",
            PERM_COST_FIRST_ITEMS, (int)largest, largest, rank_model.one_thread.seconds * 1000,
            growth_exponent(&rank_model.one_thread), items_cost_read_seconds(&items_model, largest) * 1000,
            growth_exponent(&items_model.read), items_cost_write_seconds(&items_model, largest) * 1000,
            rank_model.threads, rank_work_seconds(&rank_model, &items_model, million),
            rank_work_seconds(&rank_model, &items_model, hundred_million));
}

static void calibrate_knight(void) {
    knight_model = knight_cost_calibrate();
    fprintf(stderr,
            "puzzled: knight tours built at start-up (%d x %d and 3 x %d, one core): %.1f ns a square, and %.1f ns "
            "a square to first touch fresh memory; a 2000 x 2000 board is estimated at %.0f ms\n",
            KNIGHT_COST_BLOCKS_SIDE, KNIGHT_COST_BLOCKS_SIDE, KNIGHT_COST_STRIP_LENGTH,
            knight_model.construction_seconds * 1e9, knight_model.fresh_seconds * 1e9,
            knight_cost_seconds(&knight_model, 2000 * 2000) * 1000);
}

void api_calibrate_costs(void) {
    queens_model = queens_cost_calibrate();
    calibrated = true;
    fprintf(stderr,
            "puzzled: queens counts timed at start-up (%d searches of each board n = %d to %d, one core): n = %d in "
            "%.0f ms, r = %.3f beyond; on %u cores n = 18 is estimated at %.2g s, n = 19 at %.2g s\n",
            QUEENS_COST_SAMPLES, QUEENS_COST_FIRST_N, QUEENS_COST_LAST_N, QUEENS_COST_LAST_N,
            queens_model.sampled[QUEENS_COST_BOARDS - 1] * 1000, queens_model.beyond.factor, queens_model.threads,
            queens_cost_seconds(&queens_model, 18), queens_cost_seconds(&queens_model, 19));
    calibrate_knight();
    calibrate_rank_costs();
}

const queens_cost *api_queens_cost(void) { return calibrated ? &queens_model : NULL; }

const knight_cost *api_knight_cost(void) { return calibrated ? &knight_model : NULL; }

const perm_cost *api_rank_cost(void) { return rank_calibrated ? &rank_model : NULL; }

const items_cost *api_items_cost(void) { return rank_calibrated ? &items_model : NULL; }

double api_time_limit_seconds(const api_request *req) {
    return req->time_limit_ms == 0 ? HUGE_VAL : (double)req->time_limit_ms / 1000;
}

/* Milliseconds as a JSON number carries them exactly (an estimate may be astronomically long). */
static uint64_t exact_ms(double seconds) {
    double ms = ceil(seconds * 1000);
    return ms < (double)API_MAX_EXACT_INTEGER ? (uint64_t)ms : (uint64_t)API_MAX_EXACT_INTEGER;
}

bool api_estimate_hopeless(double estimated_seconds, double time_limit_seconds) {
    return estimated_seconds > API_HOPELESS_FACTOR * time_limit_seconds;
}

bool api_check_estimate(api_request *req, const char *field, const char *work, double estimated_seconds,
                        double time_limit_seconds, int64_t largest_that_fits) {
    return api_check_measured_estimate(req, field, field, work, estimated_seconds, time_limit_seconds,
                                       largest_that_fits);
}

bool api_check_measured_estimate(api_request *req, const char *field, const char *measure, const char *work,
                                 double estimated_seconds, double time_limit_seconds, int64_t largest_that_fits) {
    if (!api_estimate_hopeless(estimated_seconds, time_limit_seconds)) return true;
    char fits[96];
    if (largest_that_fits > 0)
        snprintf(fits, sizeof fits, "%s up to about %lld may fit", measure, (long long)largest_that_fits);
    else snprintf(fits, sizeof fits, "no %s fits", measure);
    api_fail(req, API_TOO_LARGE, field,
             "%s would take about %.2g s here (the service's own timed runs, extrapolated), over %d times the "
             "%.3g s time limit: refused at once; %s",
             work, estimated_seconds, API_HOPELESS_FACTOR, time_limit_seconds, fits);
    return api_fail_details(req, "{\"estimated_ms\":%llu,\"time_limit_ms\":%llu,\"largest_that_fits\":%lld}",
                            (unsigned long long)exact_ms(estimated_seconds),
                            (unsigned long long)exact_ms(time_limit_seconds), (long long)largest_that_fits);
}
