/* Unit tests for core/queens/queens_parts and queens_count_part: the K parts of every n from 1 to 14,
 * K from 1 to 64, add up to OEIS A000170 and A002562 (tests/reference/queens_oeis.h), every class in
 * exactly one part; a part asked twice is the same; the parts' estimated costs are near equal; a part
 * reports its own classes as progress. */
#include <criterion/criterion.h>

#include "core/common/progress.h"
#include "core/queens/queens_count.h"
#include "core/queens/queens_parts.h"
#include "queens_oeis.h"
#include "../../../lib/test_sample.h"

#define MAX_SPLIT_N 14
#define MAX_SPLIT_PARTS 64

/* The classes of n: how many constellations are the first of their class. */
static uint64_t class_count(int n) {
    uint64_t count = 0;
    for (uint64_t index = 0; index < queens_constellation_range(n); index++) {
        count += queens_constellation_class_size(n, queens_constellation_at(n, index)) != 0;
    }
    return count;
}

Test(queens_parts, every_split_adds_up_to_oeis) {
    /* The sample (quick tier, sanitizers) keeps every n and every D-th K. */
    int step = test_sample_divisor();
    for (int n = 1; n <= MAX_SPLIT_N; n++) {
        uint64_t classes = n >= QUEENS_PART_MIN_N ? class_count(n) : 0;
        for (uint32_t parts = 1; parts <= MAX_SPLIT_PARTS; parts += (uint32_t)step) {
            queens_counts sum = {0, 0};
            uint64_t classes_seen = 0, weight_seen = 0, total_weight = 0;
            queens_part all[MAX_SPLIT_PARTS];
            cr_assert_eq(queens_part_split(n, parts, all), CORE_OK);
            for (uint32_t part = 0; part < parts; part++) {
                queens_counts counts;
                cr_assert_eq(queens_count_part(&all[part], 1 + part % 2, NULL, &counts), CORE_OK);
                sum.total += counts.total;
                sum.unique += counts.unique;
                classes_seen += all[part].class_count;
                weight_seen += all[part].weight;
                total_weight = all[part].total_weight;
                queens_part_free(&all[part]);
            }
            cr_assert_eq(sum.total, oeis_a000170[n], "n=%d parts=%u: total %lu", n, parts, (unsigned long)sum.total);
            cr_assert_eq(sum.unique, oeis_a002562[n], "n=%d parts=%u: unique %lu", n, parts, (unsigned long)sum.unique);
            cr_assert_eq(classes_seen, classes, "n=%d parts=%u: every class in one part", n, parts);
            cr_assert_eq(weight_seen, total_weight, "n=%d parts=%u", n, parts);
        }
    }
}

Test(queens_parts, no_class_is_in_two_parts) {
    int n = 12;
    uint32_t parts = 7;
    queens_part p[7];
    cr_assert_eq(queens_part_split(n, parts, p), CORE_OK);
    for (uint64_t index = 0; index < queens_constellation_range(n); index++) {
        queens_constellation c = queens_constellation_at(n, index);
        if (queens_constellation_class_size(n, c) == 0) continue;
        int holders = 0;
        for (uint32_t part = 0; part < parts; part++) holders += queens_part_holds(&p[part], c);
        cr_assert_eq(holders, 1, "constellation %lu", (unsigned long)index);
    }
    for (uint32_t part = 0; part < parts; part++) queens_part_free(&p[part]);
}

Test(queens_parts, a_part_selected_alone_is_that_of_the_split) {
    queens_part all[9], one;
    cr_assert_eq(queens_part_split(13, 9, all), CORE_OK);
    cr_assert_eq(queens_part_select(13, 4, 9, &one), CORE_OK);
    cr_assert_eq(one.class_count, all[4].class_count);
    cr_assert_eq(memcmp(one.classes, all[4].classes, one.class_count * sizeof *one.classes), 0);
    cr_assert_eq(one.weight, all[4].weight);
    queens_part_free(&one);
    for (int part = 0; part < 9; part++) queens_part_free(&all[part]);
}

Test(queens_parts, a_part_asked_twice_is_the_same) {
    queens_part a, b;
    cr_assert_eq(queens_part_select(15, 3, 7, &a), CORE_OK);
    cr_assert_eq(queens_part_select(15, 3, 7, &b), CORE_OK);
    cr_assert_eq(a.class_count, b.class_count);
    cr_assert_eq(memcmp(a.classes, b.classes, a.class_count * sizeof *a.classes), 0);
    queens_counts first, second;
    cr_assert_eq(queens_count_part(&a, 1, NULL, &first), CORE_OK);
    cr_assert_eq(queens_count_part(&b, 2, NULL, &second), CORE_OK);
    cr_assert_eq(first.total, second.total);
    cr_assert_eq(first.unique, second.unique);
    cr_assert_gt(first.total, 0);
    queens_part_free(&a);
    queens_part_free(&b);
}

Test(queens_parts, estimated_costs_are_near_equal) {
    /* Greedy largest-first: no part exceeds the mean by more than the heaviest class. */
    for (int n = 15; n <= 20; n++) {
        for (uint32_t parts = 7; parts <= 64; parts *= 3) {
            uint64_t most = 0, least = UINT64_MAX, total = 0;
            queens_part all[64];
            cr_assert_eq(queens_part_split(n, parts, all), CORE_OK);
            for (uint32_t part = 0; part < parts; part++) {
                most = all[part].weight > most ? all[part].weight : most;
                least = all[part].weight < least ? all[part].weight : least;
                total = all[part].total_weight;
                queens_part_free(&all[part]);
            }
            double mean = (double)total / parts;
            cr_assert_lt((double)most, mean * 1.05, "n=%d parts=%u: heaviest part %.3f of the mean", n, parts,
                         most / mean);
            cr_assert_gt((double)least, mean * 0.95, "n=%d parts=%u: lightest part %.3f of the mean", n, parts,
                         least / mean);
        }
    }
}

Test(queens_parts, a_part_reports_its_classes_as_progress) {
    queens_part p;
    cr_assert_eq(queens_part_select(12, 2, 5, &p), CORE_OK);
    progress followed;
    progress_init(&followed);
    deadline dl = deadline_none();
    dl.progress = &followed;
    queens_counts counts;
    cr_assert_eq(queens_count_part(&p, 2, &dl, &counts), CORE_OK);
    progress_view view = progress_read(&followed);
    cr_assert_str_eq(view.unit, "subproblems");
    cr_assert_eq(view.total, p.class_count);
    cr_assert_eq(view.done, p.class_count);
    cr_assert_eq(view.milestones, PROGRESS_MILESTONES);
    progress_destroy(&followed);
    queens_part_free(&p);
}

Test(queens_parts, parts_past_the_classes_are_empty) {
    queens_part p;
    cr_assert_eq(queens_part_select(5, QUEENS_MAX_PARTS - 1, QUEENS_MAX_PARTS, &p), CORE_OK);
    cr_assert_eq(p.class_count, 0);
    queens_counts counts = {7, 7};
    cr_assert_eq(queens_count_part(&p, 1, NULL, &counts), CORE_OK);
    cr_assert_eq(counts.total, 0);
    cr_assert_eq(counts.unique, 0);
    queens_part_free(&p);
}

Test(queens_parts, an_expired_deadline_stops_a_part) {
    queens_part p;
    cr_assert_eq(queens_part_select(20, 0, 2, &p), CORE_OK);
    deadline past = deadline_after_ms(0);
    queens_counts counts = {7, 7};
    cr_assert_eq(queens_count_part(&p, 1, &past, &counts), CORE_DEADLINE);
    cr_assert_eq(counts.total, 7, "a stopped count leaves the output alone");
    queens_part_free(&p);
}
