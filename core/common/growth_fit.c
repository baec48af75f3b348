/* Least-squares fit of ln(seconds) - shape(size) against size, and the model it gives. */
#include "core/common/growth_fit.h"

#include <math.h>

static double shape_at(growth_shape shape, double size) { return shape != NULL ? shape(size) : 0; }

growth_model growth_fit(const double *sizes, const double *seconds, size_t count, growth_shape shape) {
    double mean_size = 0, mean_log = 0;
    for (size_t i = 0; i < count; i++) {
        mean_size += sizes[i] / (double)count;
        mean_log += (log(seconds[i]) - shape_at(shape, sizes[i])) / (double)count;
    }
    double covariance = 0, variance = 0;
    size_t anchor = 0;
    for (size_t i = 0; i < count; i++) {
        covariance += (sizes[i] - mean_size) * (log(seconds[i]) - shape_at(shape, sizes[i]) - mean_log);
        variance += (sizes[i] - mean_size) * (sizes[i] - mean_size);
        if (sizes[i] > sizes[anchor]) anchor = i;
    }
    return (growth_model){
        .size = sizes[anchor], .seconds = seconds[anchor], .factor = exp(covariance / variance), .shape = shape};
}

double growth_seconds(const growth_model *m, double size) {
    return m->seconds * exp((size - m->size) * log(m->factor) + shape_at(m->shape, size) - shape_at(m->shape, m->size));
}

long growth_largest_size(const growth_model *m, double seconds, long smallest, long largest) {
    long fits = smallest - 1;
    for (long size = smallest; size <= largest && growth_seconds(m, (double)size) <= seconds; size++) fits = size;
    return fits;
}
