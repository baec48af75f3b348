/* The progress record against counts kept by the test itself: done adds up, is capped by the total
 * in a view, a milestone is recorded at each eighth of the total and only then, milestones and views
 * never go backwards even with several threads adding, and an abandoned record expires the deadline
 * that carries it. */
#include <criterion/criterion.h>
#include <pthread.h>

#include "core/common/deadline.h"
#include "core/common/progress.h"

Test(progress, a_fresh_record_has_not_begun) {
    progress p;
    progress_init(&p);
    progress_view view = progress_read(&p);
    cr_assert_not(view.begun);
    cr_assert_null(view.unit);
    cr_assert_eq(view.done, 0);
    cr_assert_eq(view.total, PROGRESS_NO_TOTAL);
    progress_destroy(&p);
}

Test(progress, a_null_record_takes_reports_and_is_never_abandoned) {
    progress_begin(NULL, "units", 10);
    progress_add(NULL, 3);
    cr_assert_not(progress_abandoned(NULL));
    cr_assert_null(progress_of(NULL));
}

Test(progress, done_adds_up_and_a_view_never_passes_the_total) {
    progress p;
    progress_init(&p);
    progress_begin(&p, "items", 10);
    progress_add(&p, 4);
    progress_add(&p, 5);
    progress_view view = progress_read(&p);
    cr_assert(view.begun);
    cr_assert_str_eq(view.unit, "items");
    cr_assert_eq(view.done, 9);
    progress_add(&p, 7); /* a computation that reports more than its total is capped, not believed */
    cr_assert_eq(progress_read(&p).done, 10);
    progress_destroy(&p);
}

Test(progress, a_milestone_at_each_eighth_of_the_total_and_only_there) {
    progress p;
    progress_init(&p);
    progress_begin(&p, "subproblems", 800);
    for (unsigned unit = 1; unit <= 800; unit++) {
        progress_add(&p, 1);
        cr_assert_eq(progress_read(&p).milestones, unit / 100, "after %u units", unit);
    }
    for (unsigned i = 0; i < PROGRESS_MILESTONES; i++) cr_assert_eq(progress_milestone_at(&p, i).done, 100 * (i + 1));
    progress_destroy(&p);
}

Test(progress, one_big_step_records_every_milestone_it_passes_with_the_count_then) {
    progress p;
    progress_init(&p);
    progress_begin(&p, "puzzles", 16);
    progress_add(&p, 7); /* past 2/8 and 3/8 at once */
    progress_view view = progress_read(&p);
    cr_assert_eq(view.milestones, 3);
    for (unsigned i = 0; i < 3; i++) cr_assert_eq(progress_milestone_at(&p, i).done, 7);
    progress_destroy(&p);
}

Test(progress, no_milestones_without_a_total) {
    progress p;
    progress_init(&p);
    progress_begin(&p, "nodes", PROGRESS_NO_TOTAL);
    progress_add(&p, 1000000);
    cr_assert_eq(progress_read(&p).milestones, 0);
    cr_assert_eq(progress_read(&p).done, 1000000);
    progress_destroy(&p);
}

enum { ADDERS = 4, ADDS_EACH = 200000 };

static void *add_units(void *arg) {
    for (int i = 0; i < ADDS_EACH; i++) progress_add(arg, 1);
    return NULL;
}

/* What a follower does: views and the milestones in them, in the order it would send them. */
Test(progress, a_follower_never_sees_done_or_time_go_back_while_threads_add) {
    progress p;
    progress_init(&p);
    progress_begin(&p, "subproblems", (uint64_t)ADDERS * ADDS_EACH);
    pthread_t threads[ADDERS];
    for (int i = 0; i < ADDERS; i++) pthread_create(&threads[i], NULL, add_units, &p);
    uint64_t last_done = 0;
    int64_t last_ns = 0;
    unsigned sent = 0;
    for (int look = 0; sent < PROGRESS_MILESTONES && look < 100000000; look++) {
        progress_view view = progress_read(&p);
        for (; sent < view.milestones; sent++) {
            progress_milestone m = progress_milestone_at(&p, sent);
            cr_assert_geq(m.done, last_done);
            cr_assert_geq(m.at_ns, last_ns);
            cr_assert_geq(m.done, (uint64_t)ADDERS * ADDS_EACH / PROGRESS_MILESTONES * (sent + 1));
            last_done = m.done;
            last_ns = m.at_ns;
        }
        cr_assert_geq(view.done, last_done);
        cr_assert_geq(view.at_ns, last_ns);
        last_done = view.done;
        last_ns = view.at_ns;
    }
    for (int i = 0; i < ADDERS; i++) pthread_join(threads[i], NULL);
    cr_assert_eq(sent, PROGRESS_MILESTONES);
    cr_assert_eq(progress_read(&p).done, (uint64_t)ADDERS * ADDS_EACH);
    progress_destroy(&p);
}

Test(progress, an_abandoned_record_expires_the_deadline_that_carries_it) {
    progress p;
    progress_init(&p);
    deadline d = deadline_after_ms(3600 * 1000);
    d.progress = &p;
    cr_assert_eq(progress_of(&d), &p);
    cr_assert_not(deadline_expired(&d));
    progress_abandon(&p);
    cr_assert(deadline_expired(&d));
    cr_assert_eq(deadline_remaining_ms(&d), 0);
    progress_destroy(&p);
}
