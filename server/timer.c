/* The server's one timer thread and its min-heap of entries (see timer.h). One mutex guards the
 * heap and every armed entry's time and slot; the thread waits on `changed` until the earliest time,
 * and timer_disarm() on `fired` until the entry's callback has returned. */
#include "server/timer.h"

#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "core/common/monotonic.h"
#include "server/thread_safety.h"

/* The heap's first room, in entries; it doubles when full (an entry armed while the heap is full and
 * no memory can be had is refused). */
#define TIMER_FIRST_CAPACITY 64

struct timer {
    mutex lock;
    pthread_cond_t changed; /* an entry was armed earlier than the thread's wake-up, or the stop */
    pthread_cond_t fired;   /* a callback returned */
    timer_entry **heap;     /* heap[0] is the earliest */
    size_t count, capacity;
    timer_entry *running; /* whose callback runs now, or NULL (never read through: it may be freed) */
    bool place_kept;      /* a place stays free for `running` until it is armed again */
    bool stopping;
    pthread_t thread;
};

void timer_entry_init(timer_entry *entry, void (*fire)(timer_entry *entry)) {
    *entry = (timer_entry){.fire = fire, .at_ns = 0, .slot = TIMER_UNARMED};
}

static void place(timer *t, size_t slot, timer_entry *entry) REQUIRES(t->lock) {
    t->heap[slot] = entry;
    entry->slot = slot;
}

/* Moves the entry at `slot` up while it is earlier than its parent, then down while a child is
 * earlier than it. */
static void settle(timer *t, size_t slot) REQUIRES(t->lock) {
    timer_entry *entry = t->heap[slot];
    while (slot > 0 && entry->at_ns < t->heap[(slot - 1) / 2]->at_ns) {
        place(t, slot, t->heap[(slot - 1) / 2]);
        slot = (slot - 1) / 2;
    }
    for (;;) {
        size_t child = 2 * slot + 1;
        if (child >= t->count) break;
        if (child + 1 < t->count && t->heap[child + 1]->at_ns < t->heap[child]->at_ns) child++;
        if (t->heap[child]->at_ns >= entry->at_ns) break;
        place(t, slot, t->heap[child]);
        slot = child;
    }
    place(t, slot, entry);
}

static void take_out(timer *t, timer_entry *entry) REQUIRES(t->lock) {
    size_t slot = entry->slot;
    entry->slot = TIMER_UNARMED;
    t->count--;
    if (slot == t->count) return;
    place(t, slot, t->heap[t->count]);
    settle(t, slot);
}

static void *run(void *arg) {
    timer *t = arg;
    mutex_lock(&t->lock);
    while (!t->stopping) {
        if (t->count == 0) {
            mutex_wait(&t->changed, &t->lock);
            continue;
        }
        timer_entry *earliest = t->heap[0];
        if (earliest->at_ns == TIMER_NEVER) {
            mutex_wait(&t->changed, &t->lock);
            continue;
        }
        if (earliest->at_ns > monotonic_now_ns()) {
            mutex_wait_until(&t->changed, &t->lock, earliest->at_ns);
            continue;
        }
        take_out(t, earliest);
        t->running = earliest;
        t->place_kept = true;
        mutex_unlock(&t->lock);
        earliest->fire(earliest);
        mutex_lock(&t->lock);
        t->running = NULL;
        t->place_kept = false;
        pthread_cond_broadcast(&t->fired);
    }
    mutex_unlock(&t->lock);
    return NULL;
}

timer *timer_start(void) {
    timer *t = calloc(1, sizeof *t);
    if (t == NULL) return NULL;
    t->heap = calloc(TIMER_FIRST_CAPACITY, sizeof *t->heap);
    if (t->heap == NULL) goto out;
    t->capacity = TIMER_FIRST_CAPACITY;
    mutex_init(&t->lock);
    pthread_cond_init(&t->changed, NULL);
    pthread_cond_init(&t->fired, NULL);
    if (pthread_create(&t->thread, NULL, run, t) == 0) return t;
    pthread_cond_destroy(&t->changed);
    pthread_cond_destroy(&t->fired);
    mutex_destroy(&t->lock);
out:
    free(t->heap);
    free(t);
    return NULL;
}

/* Under the lock: room for one more entry, `entry`. The place of the entry whose callback runs stays
 * free for it alone while it is out of the heap, so that its callback can always arm it again. */
static bool make_room(timer *t, const timer_entry *entry) REQUIRES(t->lock) {
    size_t kept = t->place_kept && entry != t->running ? 1 : 0;
    if (t->count + kept < t->capacity) return true;
    timer_entry **wider = realloc(t->heap, 2 * t->capacity * sizeof *wider);
    if (wider == NULL) return false;
    t->heap = wider;
    t->capacity *= 2;
    return true;
}

bool timer_arm(timer *t, timer_entry *entry, int64_t at_ns) {
    bool armed = true;
    mutex_lock(&t->lock);
    if (entry->slot == TIMER_UNARMED && !make_room(t, entry)) {
        armed = false;
    } else if (entry->slot == TIMER_UNARMED) {
        if (entry == t->running) t->place_kept = false; /* it takes its kept place */
        entry->at_ns = at_ns;
        place(t, t->count++, entry);
        settle(t, entry->slot);
    } else if (at_ns < entry->at_ns) {
        entry->at_ns = at_ns;
        settle(t, entry->slot);
    }
    if (armed && t->heap[0] == entry) pthread_cond_signal(&t->changed);
    assert(armed || entry != t->running); /* a callback's re-arm has its kept place */
    mutex_unlock(&t->lock);
    return armed;
}

void timer_disarm(timer *t, timer_entry *entry) {
    mutex_lock(&t->lock);
    if (entry->slot != TIMER_UNARMED) take_out(t, entry);
    while (t->running == entry) mutex_wait(&t->fired, &t->lock);
    mutex_unlock(&t->lock);
}

void timer_stop(timer *t) {
    if (t == NULL) return;
    mutex_lock(&t->lock);
    t->stopping = true;
    pthread_cond_signal(&t->changed);
    mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->changed);
    pthread_cond_destroy(&t->fired);
    mutex_destroy(&t->lock);
    free(t->heap);
    free(t);
}
