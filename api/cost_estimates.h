/* Hopeless work refused at once: an endpoint whose cost grows in a known way with its fields estimates
 * a request's time from the service's own measured rates (models calibrated at start-up on this
 * machine: core/queens/queens_cost.h, core/knight/knight_cost.h, core/permutations/perm_cost.h with
 * api/arrangements/items_cost.h) and refuses, with 422 too_large, work that cannot finish within the
 * request's time limit, instead of holding a worker for the whole limit before a 503.
 *
 * Work near the line is still tried: a request is refused only when its estimate is over
 * API_HOPELESS_FACTOR times the time it has left. The error says about how long the work would take
 * and the largest value of the field that may fit the limit (the error's details; an upper
 * bound where the model underestimates).
 *
 * Per endpoint:
 *   /queens mode "count" without `placed`: the fast counter's time, sampled on its own searches for
 *   n = 12 to 17 and growing as n^n r^n beyond (core/queens/queens_cost.h); the other algorithms enumerate
 *   and are slower still, so the estimate is a lower bound for them too. A count of the completions
 *   of placed queens is not estimated (the placed queens cut the search by an amount its fields do
 *   not tell).
 *   /knight-tour with algorithm "auto" on a board of at least KNIGHT_COST_MIN_SQUARES squares that no
 *   theorem rules out: the constructions' time, linear in the squares, with first touching their
 *   memory, timed at start-up (core/knight/knight_cost.h); what fits is a number of squares (rows x
 *   cols). Boards answered by theorem, smaller boards (searched, or built at a fixed cost the squares
 *   do not tell) and the other algorithms (a heuristic's retries, an exponential search) are not
 *   estimated.
 *   /permutation/rank and /permutation/unrank of an array of items (`permutation`, `items`; `k` of
 *   them when given): the rank of that many distinct items and its numbers' decimal text, a power of
 *   the count fitted to ranks of 4,096 to 65,536 items (core/permutations/perm_cost.h), over the two
 *   threads the rank's top level runs on, plus the items' JSON read from the body and, for an unrank,
 *   written in the answer, powers fitted to the same counts, on one thread
 *   (api/arrangements/items_cost.h; the sum: api/permutations/rank_estimate.h); the field blamed is
 *   the one counted, `largest_that_fits` an item count. Text (`text`, `pool_text`) is not estimated: its letters repeat (beyond about 1.1M
 *   characters they must), and the numbers of a multiset's rank shrink with its repeats down to the
 *   size of the answer (core/permutations/rank_cancel.h), by an amount the count does not tell; 10^6
 *   letters of 26 take a third of the time of 10^6 distinct items. An array is estimated before its items are read (the
 *   refusal must come before that work), so one whose values repeat is estimated as distinct items:
 *   an overestimate when they repeat heavily (an array is a permutation in the common case). Below the
 *   smallest count timed (PERM_COST_FIRST_ITEMS) nothing is estimated. */
#ifndef PUZZLED_API_COST_ESTIMATES_H
#define PUZZLED_API_COST_ESTIMATES_H

#include "api/api.h"
#include "api/arrangements/items_cost.h"
#include "core/knight/knight_cost.h"
#include "core/permutations/perm_cost.h"
#include "core/queens/queens_cost.h"

/* The margin of estimate over the request's time limit before it is refused: each estimate holds
 * within this factor of the time its work takes (docs/estimates.md), so work refused beyond it could
 * not have finished in time, and work short of it is tried. */
#define API_HOPELESS_FACTOR 2

/* Times the calibration runs and fits every model. Call once
 * at start-up, on the main thread, before serving: the models are read-only afterwards. Without it
 * nothing is refused. */
void api_calibrate_costs(void);

/* The n-queens count model, or NULL before api_calibrate_costs(). */
const queens_cost *api_queens_cost(void);

/* The knight's tour model, or NULL before api_calibrate_costs(). */
const knight_cost *api_knight_cost(void);

/* The rank and unrank model, or NULL before api_calibrate_costs() (or when it had no memory). */
const perm_cost *api_rank_cost(void);

/* The model of a rank's or unrank's items read and written, or NULL before api_calibrate_costs() (or
 * when it had no memory). */
const items_cost *api_items_cost(void);

/* The request's whole time limit in seconds, HUGE_VAL for none: the estimate is weighed against it,
 * not against what is left, so a request that waited in the queue is not refused as hopeless when it
 * starts (it runs, and meets its deadline as any other). */
double api_time_limit_seconds(const api_request *req);

/* True when `estimated_seconds` is over API_HOPELESS_FACTOR times `time_limit_seconds`: work that
 * api_check_estimate refuses, which the server therefore answers without waiting for a worker. */
bool api_estimate_hopeless(double estimated_seconds, double time_limit_seconds);

/* Returns true when `estimated_seconds` is within API_HOPELESS_FACTOR times `time_limit_seconds`; else fails
 * with 422 too_large naming `field`, its message saying about how long `work` would take and the
 * largest value of `field` that fits (`largest_that_fits`, 0 for none), and returns false. */
bool api_check_estimate(api_request *req, const char *field, const char *work, double estimated_seconds,
                        double time_limit_seconds, int64_t largest_that_fits);

/* api_check_estimate for work whose size is not the value of the field blamed: the message says that
 * `measure` (a board's "rows x cols") up to about `largest_that_fits` may fit. */
bool api_check_measured_estimate(api_request *req, const char *field, const char *measure, const char *work,
                                 double estimated_seconds, double time_limit_seconds, int64_t largest_that_fits);

#endif
