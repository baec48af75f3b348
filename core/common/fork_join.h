/* Two independent pieces of one computation at once: the second on a short-lived helper thread, the
 * first on the caller's, joined before return. The helper is not one of the server's compute workers:
 * it lives only as long as one step of one request (a big multiplication, a decimal conversion), so
 * the pool's accounting is unchanged at every point a request can be observed from outside. When the
 * caller says the pieces are too small to pay for a thread, or no thread can be started, both run on
 * the caller's thread, one after the other: the answer never depends on whether the helper started. */
#ifndef PUZZLED_CORE_FORK_JOIN_H
#define PUZZLED_CORE_FORK_JOIN_H

#include <stdbool.h>

typedef void (*fork_join_task)(void *arg);

/* Starting and joining a thread takes about 40 us here; GMP converts a number of this many bits in
 * about 0.3 ms (2^14 bits: 34 us), so pieces of numbers smaller than this run one after the other
 * (docs/performance.md#issue-32s-goals-the-idle-runs-of-2026-11-27). */
#define FORK_JOIN_MIN_BITS ((size_t)1 << 16)

/* Runs first(first_arg) and second(second_arg): at once when `parallel`, else one after the other. */
void fork_join(bool parallel, fork_join_task first, void *first_arg, fork_join_task second, void *second_arg);

#endif
