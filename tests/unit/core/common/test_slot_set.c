/* The slot set against a plain array of free flags: while slots are taken one by one in a seeded
 * random order, every "free below", every select and the list of the free slots agree with a linear
 * scan, on sizes around multiples of the 64-bit word (where the last word is partial). */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdlib.h>

#include "core/common/slot_set.h"

static size_t scan_free_below(const bool *free_slots, size_t i) {
    size_t count = 0;
    for (size_t s = 0; s < i; s++) count += free_slots[s];
    return count;
}

static size_t scan_select(const bool *free_slots, size_t n, size_t r) {
    for (size_t s = 0; s < n; s++)
        if (free_slots[s] && r-- == 0) return s;
    return n;
}

static void check_against_scan(const slot_set *set, const bool *free_slots, size_t n) {
    for (size_t i = 0; i <= n; i++)
        cr_assert_eq(slot_set_free_below(set, i), scan_free_below(free_slots, i), "free below %zu of %zu", i, n);
    size_t count = scan_free_below(free_slots, n);
    for (size_t r = 0; r < count; r++)
        cr_assert_eq(slot_set_select(set, r), scan_select(free_slots, n, r), "select(%zu) of %zu slots", r, n);
    uint32_t *listed = malloc((count ? count : 1) * sizeof *listed);
    cr_assert_not_null(listed);
    slot_set_list_free(set, listed);
    for (size_t r = 0; r < count; r++) cr_assert_eq(listed[r], scan_select(free_slots, n, r), "listed %zu", r);
    free(listed);
}

Test(slot_set, agrees_with_a_linear_scan_as_slots_are_taken) {
    const size_t sizes[] = {0, 1, 2, 7, 8, 63, 64, 65, 127, 128, 129, 200, 513};
    srand(32);
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        size_t n = sizes[t];
        bool *free_slots = malloc((n ? n : 1) * sizeof *free_slots);
        cr_assert_not_null(free_slots);
        for (size_t i = 0; i < n; i++) free_slots[i] = true;
        slot_set set;
        cr_assert(slot_set_init_free(&set, n));
        check_against_scan(&set, free_slots, n);
        for (size_t left = n; left > 0; left--) {
            size_t slot = scan_select(free_slots, n, (size_t)rand() % left);
            slot_set_take(&set, slot);
            free_slots[slot] = false;
            check_against_scan(&set, free_slots, n);
        }
        slot_set_free(&set);
        free(free_slots);
    }
}
