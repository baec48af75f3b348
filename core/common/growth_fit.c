/* Timed runs, the least-squares fit of ln(seconds) - shape(size) against the size (or ln seconds
 * against ln size, for a power), and the model it gives. */
#include "core/common/growth_fit.h"

#include <math.h>
#include <time.h>
#include <unistd.h>

double growth_thread_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

double growth_time_fastest(growth_run run, void *arg, unsigned runs) {
    double fastest = HUGE_VAL;
    for (unsigned i = 0; i < runs; i++) {
        double started = growth_thread_seconds();
        run(arg);
        fastest = fmin(fastest, growth_thread_seconds() - started);
    }
    return fastest;
}

unsigned growth_cores(unsigned most) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) return 1;
    return (unsigned long)cores < most ? (unsigned)cores : most;
}

static double shape_at(growth_shape shape, double size) { return shape != NULL ? shape(size) : 0; }

/* Where the model's line places `size`: the size itself, or its logarithm for a power. */
static double abscissa(bool power, double size) { return power ? log(size) : size; }

static growth_model fit_line(const double *sizes, const double *seconds, size_t count, growth_shape shape, bool power) {
    double mean_x = 0, mean_log = 0;
    for (size_t i = 0; i < count; i++) {
        mean_x += abscissa(power, sizes[i]) / (double)count;
        mean_log += (log(seconds[i]) - shape_at(shape, sizes[i])) / (double)count;
    }
    double covariance = 0, variance = 0;
    size_t anchor = 0;
    for (size_t i = 0; i < count; i++) {
        double x = abscissa(power, sizes[i]) - mean_x;
        covariance += x * (log(seconds[i]) - shape_at(shape, sizes[i]) - mean_log);
        variance += x * x;
        if (sizes[i] > sizes[anchor]) anchor = i;
    }
    return (growth_model){.size = sizes[anchor],
                          .seconds = seconds[anchor],
                          .factor = exp(covariance / variance),
                          .shape = shape,
                          .power = power};
}

growth_model growth_fit(const double *sizes, const double *seconds, size_t count, growth_shape shape) {
    return fit_line(sizes, seconds, count, shape, false);
}

growth_model growth_fit_power(const double *sizes, const double *seconds, size_t count) {
    return fit_line(sizes, seconds, count, NULL, true);
}

double growth_exponent(const growth_model *m) { return log(m->factor); }

double growth_seconds(const growth_model *m, double size) {
    double steps = abscissa(m->power, size) - abscissa(m->power, m->size);
    return m->seconds * exp(steps * log(m->factor) + shape_at(m->shape, size) - shape_at(m->shape, m->size));
}

long growth_largest_fitting(growth_time time, const void *arg, double seconds, long smallest, long largest) {
    long fits = smallest - 1, beyond = largest + 1; /* the largest size known to fit, the smallest known not to */
    while (beyond - fits > 1) {
        long middle = fits + (beyond - fits) / 2;
        if (time(arg, (double)middle) <= seconds) fits = middle;
        else beyond = middle;
    }
    return fits;
}

static double model_time(const void *model, double size) { return growth_seconds(model, size); }

long growth_largest_size(const growth_model *m, double seconds, long smallest, long largest) {
    return growth_largest_fitting(model_time, m, seconds, smallest, largest);
}
