/* The server's one timer: a single thread, started once, that does every timed thing of the
 * server: the compute pool's expiry of waiting jobs (server/compute_pool.c) and each event stream's
 * tick (progress events, keep-alive comments, the client-gone check; server/event_stream.c).
 *
 * Design: a binary min-heap of entries ordered by their time, as libuv keeps its timers
 * (src/timer.c, a heap per loop) and nginx its own (src/event/ngx_event_timer.c, a red-black tree):
 * the thread sleeps until the earliest entry is due (or one earlier is armed), takes it out of the
 * heap and calls it without the timer's lock, so a callback may arm entries, itself included. An
 * entry belongs to its owner (embedded in it); the heap only points at it. Arming an entry that is
 * not armed may have to widen the heap, and fails only when that memory cannot be had; a callback
 * that arms its own entry again always finds room, since its place is kept free for it while its
 * callback runs, whatever other threads arm meanwhile: a re-arm from the callback never fails. */
#ifndef PUZZLED_SERVER_TIMER_H
#define PUZZLED_SERVER_TIMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct timer timer;

typedef struct timer_entry timer_entry;
struct timer_entry {
    void (*fire)(timer_entry *entry); /* on the timer thread, once the entry's time has come */
    /* the timer's, under its lock */
    int64_t at_ns; /* core/common/monotonic.h */
    size_t slot;   /* its place in the heap, or TIMER_UNARMED */
};

#define TIMER_UNARMED SIZE_MAX
/* A time that never comes: an entry armed for it holds its place in the heap without firing. */
#define TIMER_NEVER INT64_MAX

/* An entry not in the heap, that calls `fire` when armed and due. */
void timer_entry_init(timer_entry *entry, void (*fire)(timer_entry *entry));

/* Starts the thread. NULL when the thread or the memory cannot be had. */
timer *timer_start(void);

/* Arms `entry` to fire at `at_ns` (core/common/monotonic.h), or earlier if it is armed for earlier already.
 * From any thread, a callback included. False (nothing armed) only when the heap had to widen and
 * the memory could not be had. */
bool timer_arm(timer *t, timer_entry *entry, int64_t at_ns);

/* Takes `entry` out of the heap, and returns once its callback is not running either: its owner
 * may then free it. Not from the entry's own callback. */
void timer_disarm(timer *t, timer_entry *entry);

/* Stops the thread and frees the timer; no entry may be armed. */
void timer_stop(timer *t);

#endif
