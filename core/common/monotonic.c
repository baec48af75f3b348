/* See monotonic.h. */
#include "core/common/monotonic.h"

int64_t monotonic_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

struct timespec monotonic_timespec(int64_t at_ns) {
    return (struct timespec){.tv_sec = at_ns / 1000000000, .tv_nsec = at_ns % 1000000000};
}
