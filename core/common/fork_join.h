/* Two independent pieces of one computation at once: the second on a short-lived helper thread, the
 * first on the caller's, joined before return. The helper is not one of the server's compute workers:
 * it lives only as long as one step of one request (a big multiplication, a decimal conversion), so
 * the pool's accounting is unchanged at every point a request can be observed from outside. When no
 * thread can be started both pieces run on the caller's thread, one after the other: the answer never
 * depends on whether the helper started. */
#ifndef PUZZLED_CORE_FORK_JOIN_H
#define PUZZLED_CORE_FORK_JOIN_H

typedef void (*fork_join_task)(void *arg);

void fork_join(fork_join_task first, void *first_arg, fork_join_task second, void *second_arg);

#endif
