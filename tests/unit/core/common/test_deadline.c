/* Deadlines against the monotonic clock read directly: "none" never expires, a past one has expired,
 * and a short one expires once (and only once) the clock has passed it. */
#include <criterion/criterion.h>
#include <time.h>

#include "core/common/deadline.h"

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

Test(deadline, none_never_expires) {
    deadline d = deadline_none();
    cr_assert_not(deadline_expired(&d));
}

Test(deadline, expires_only_after_the_clock_passes_it) {
    int64_t before = now_ns();
    deadline d = deadline_after_ms(30);
    cr_assert_geq(d.at_ns, before + 30 * 1000000);
    while (now_ns() < d.at_ns) cr_assert_not(deadline_expired(&d) && now_ns() < d.at_ns);
    cr_assert(deadline_expired(&d));
}

Test(deadline, zero_milliseconds_has_expired_at_once) {
    deadline d = deadline_after_ms(0);
    struct timespec pause = {0, 1000};
    nanosleep(&pause, NULL);
    cr_assert(deadline_expired(&d));
}

Test(deadline, a_raised_cancel_flag_expires_even_a_distant_deadline) {
    atomic_bool cancelled = false;
    deadline d = deadline_after_ms(3600 * 1000);
    d.cancelled = &cancelled;
    cr_assert_not(deadline_expired(&d));
    cr_assert_gt(deadline_remaining_ms(&d), 3590 * 1000);
    atomic_store(&cancelled, true);
    cr_assert(deadline_expired(&d));
    cr_assert_eq(deadline_remaining_ms(&d), 0);
}

Test(deadline, a_raised_abandoned_flag_expires_it_and_leaves_the_stop_flag_down) {
    atomic_bool cancelled = false, abandoned = false;
    deadline d = deadline_after_ms(3600 * 1000);
    d.cancelled = &cancelled;
    d.abandoned = &abandoned;
    cr_assert_not(deadline_expired(&d));
    atomic_store(&abandoned, true);
    cr_assert(deadline_expired(&d));
    cr_assert_eq(deadline_remaining_ms(&d), 0);
    cr_assert_not(atomic_load(&cancelled));
    deadline copy = d; /* a slice's deadline keeps the flag */
    copy.at_ns = deadline_after_ms(3600 * 1000).at_ns;
    cr_assert(deadline_expired(&copy));
}
