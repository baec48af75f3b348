/* Cost models fitted to timed runs of the real algorithm: what lets an endpoint say, before it starts,
 * that a request cannot finish within its time limit. The model is
 *     seconds(size) = C * factor^size * e^shape(size),
 * `shape` a known term of the algorithm's growth (NULL: none, a plain growth by `factor` per step of
 * size), C and factor fitted: the least-squares line through (size, ln seconds - shape(size)). The
 * model keeps the line's slope and is anchored at the largest size measured, where the fixed costs
 * that flatten small sizes weigh least. Beyond the measured sizes it is an extrapolation. */
#ifndef PUZZLED_CORE_GROWTH_FIT_H
#define PUZZLED_CORE_GROWTH_FIT_H

#include <stddef.h>

typedef double (*growth_shape)(double size);

typedef struct growth_model {
    double size;        /* the anchor: the largest size measured */
    double seconds;     /* ... and its time */
    double factor;      /* fitted growth per step of size, beyond `shape` */
    growth_shape shape; /* NULL, or the known term */
} growth_model;

/* Fits `count` >= 2 runs, sizes[i] not all equal and seconds[i] > 0. */
growth_model growth_fit(const double *sizes, const double *seconds, size_t count, growth_shape shape);

/* The model's time for `size`. */
double growth_seconds(const growth_model *m, double size);

/* The largest integer size from `smallest` to `largest` whose time is at most `seconds`, or
 * smallest - 1 when none is (the model's time rises with the size over that range). */
long growth_largest_size(const growth_model *m, double seconds, long smallest, long largest);

#endif
