/* What the /shuffle endpoint (api/random/shuffle.c) shows of itself besides its api_endpoint: the
 * size from which a shuffle skips the express slice, named here so that its test can check both
 * sides of it. */
#ifndef PUZZLED_API_RANDOM_SHUFFLE_H
#define PUZZLED_API_RANDOM_SHUFFLE_H

/* Values from which one whole shuffle outlasts the express slice (20 ms, server/compute_pool.h) and
 * so skips it (api_endpoint.long_running): its cost estimated low at 4 ns a value, where the array's
 * first touch and a random swap take 5-6 ns on the 2-core EPYC
 * (docs/performance.md#the-seeded-shuffle). */
#define SHUFFLE_LONG_VALUES 5000000

#endif
