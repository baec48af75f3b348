/* Cost models fitted to timed runs of the real algorithm: what lets an endpoint say, before it starts,
 * that a request cannot finish within its time limit. The model is
 *     seconds(size) = C * factor^size * e^shape(size),
 * `shape` a known term of the algorithm's growth (NULL: none, a plain growth by `factor` per step of
 * size), C and factor fitted: the least-squares line through (size, ln seconds - shape(size)); or,
 * fitted by growth_fit_power, a power of the size,
 *     seconds(size) = C * size^exponent,
 * the line through (ln size, ln seconds). The model keeps the line's slope and is anchored at the
 * largest size measured, where the fixed costs that flatten small sizes weigh least. Beyond the
 * measured sizes it is an extrapolation. */
#ifndef PUZZLED_CORE_GROWTH_FIT_H
#define PUZZLED_CORE_GROWTH_FIT_H

#include <stdbool.h>
#include <stddef.h>

typedef double (*growth_shape)(double size);

/* One run of the algorithm to time, on the calling thread. */
typedef void (*growth_run)(void *arg);

typedef struct growth_model {
    double size;        /* the anchor: the largest size measured */
    double seconds;     /* ... and its time */
    double factor;      /* fitted growth per step of size, beyond `shape` */
    growth_shape shape; /* NULL, or the known term */
    bool power;         /* a power of the size: `factor` is then e^exponent, the growth per e-fold of it */
} growth_model;

/* Fits `count` >= 2 runs, sizes[i] not all equal and seconds[i] > 0. */
growth_model growth_fit(const double *sizes, const double *seconds, size_t count, growth_shape shape);

/* The same for seconds(size) = C * size^exponent: sizes[i] > 0. */
growth_model growth_fit_power(const double *sizes, const double *seconds, size_t count);

/* A power model's exponent: ln factor. */
double growth_exponent(const growth_model *m);

/* The calling thread's processor time in seconds: what timed work itself costs, whatever else the
 * machine runs meanwhile (under load, wall-clock times of calibration runs came out 3 to 10 times too
 * long here). */
double growth_thread_seconds(void);

/* The fastest of `runs` >= 1 runs of run(arg), in the calling thread's processor time (a busy machine
 * only ever slows a run down). */
double growth_time_fastest(growth_run run, void *arg, unsigned runs);

/* The online cores, at most `most` (at least 1): what a computation of up to `most` threads spreads
 * over here, to turn one thread's time into the least time it takes. */
unsigned growth_cores(unsigned most);

/* The model's time for `size`. */
double growth_seconds(const growth_model *m, double size);

/* A time that rises with the size: one model's (growth_seconds), or a sum of several models' for work
 * made of parts that grow differently. */
typedef double (*growth_time)(const void *arg, double size);

/* The largest integer size from `smallest` to `largest` whose time(arg, size) is at most `seconds`, or
 * smallest - 1 when none is (the time rises with the size over that range): a binary search, so the
 * range may be long (item counts up to 2^31). */
long growth_largest_fitting(growth_time time, const void *arg, double seconds, long smallest, long largest);

/* growth_largest_fitting for the model's own time. */
long growth_largest_size(const growth_model *m, double seconds, long smallest, long largest);

#endif
