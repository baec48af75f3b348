/* The dice relay (core/random/dice_relay.h): its batches hold exactly the pairs bounded_random_pair
 * draws one by one from the same generator, in order, for either bound offset and for runs that end
 * on, just after and just before a batch boundary; the generator is left where the one-by-one draws
 * leave it; and a relay stopped with batches left ends at once. The outcome never depends on the
 * helper thread's timing, so these checks hold however the threads are scheduled. */
#include <criterion/criterion.h>

#include "core/random/bounded_random.h"
#include "core/random/dice_relay.h"

static void check_relay(uint64_t seed, size_t top, size_t less, size_t steps) {
    rng relayed, one_by_one;
    rng_seed_u64(&relayed, seed);
    rng_seed_u64(&one_by_one, seed);
    dice_relay *d = dice_relay_start(&relayed, top, less, steps);
    cr_assert(d != NULL);
    size_t step = 0, count;
    for (const uint32_t(*pairs)[2]; (pairs = dice_relay_next(d, &count)) != NULL;) {
        cr_assert(count > 0 && count <= DICE_RELAY_BATCH_PAIRS);
        for (size_t k = 0; k < count; k++, step++) {
            size_t i = top - 2 * step;
            uint64_t j1, j2;
            bounded_random_pair(&one_by_one, i + 1 - less, i - less, &j1, &j2);
            cr_assert(pairs[k][0] == j1 && pairs[k][1] == j2, "steps %zu, pair %zu: %u %u against %llu %llu", steps,
                      step, pairs[k][0], pairs[k][1], (unsigned long long)j1, (unsigned long long)j2);
        }
    }
    cr_assert_eq(step, steps);
    cr_assert_null(dice_relay_next(d, &count), "nothing after the last batch");
    dice_relay_finish(d);
    cr_assert_eq(rng_next(&relayed), rng_next(&one_by_one), "the generator continues where one-by-one draws leave it");
}

Test(dice_relay, batches_match_one_by_one_draws) {
    const size_t steps[] = {0,
                            1,
                            DICE_RELAY_BATCH_PAIRS - 1,
                            DICE_RELAY_BATCH_PAIRS,
                            DICE_RELAY_BATCH_PAIRS + 1,
                            5 * DICE_RELAY_BATCH_PAIRS + 77};
    for (size_t s = 0; s < sizeof steps / sizeof *steps; s++)
        for (size_t less = 0; less <= 1; less++) check_relay(1000 + s, 2 * steps[s] + 1 + less, less, steps[s]);
}

Test(dice_relay, stops_with_batches_left) {
    rng r;
    rng_seed_u64(&r, 3);
    size_t steps = 8 * DICE_RELAY_BATCH_PAIRS, count;
    dice_relay *d = dice_relay_start(&r, 2 * steps + 1, 0, steps);
    cr_assert(d != NULL);
    cr_assert_not_null(dice_relay_next(d, &count));
    cr_assert_eq(count, DICE_RELAY_BATCH_PAIRS);
    dice_relay_finish(d); /* returns: the helper stops waiting for the caller */
}
