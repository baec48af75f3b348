/* The log buffer (see log_buffer.h): a bounded queue of fixed slots after Dmitry Vyukov's bounded MPMC
 * queue, with one consumer. Each slot carries a sequence number that says whose turn it is: a putter
 * claims the next position with a compare-and-swap, copies its line in and publishes it by moving the
 * slot's sequence on; the writer takes slots in position order and hands them back one lap later. A
 * putter that finds its slot not yet handed back finds the buffer full and drops its line. No thread
 * ever waits for another, and no lock is shared.
 *
 * The writer sleeps on a futex word (`writer_asleep`) when it finds nothing to take; a putter that
 * publishes a line clears the word and wakes it. Both sides store, then read the other's word
 * (sequentially consistent), so a line published while the writer decides to sleep is seen by one
 * of them. After a batch shorter than half of PIPE_BUF, the writer first lets lines gather for a
 * moment, awake: under steady traffic it writes many lines at a time and never sleeps, so that no
 * putter makes a system call to wake it.
 *
 * The writer waits for stderr with poll before each write of at most PIPE_BUF bytes, which a pipe
 * takes whole once poll says it is writable; so the stop's flush, which it watches between waits,
 * is bounded even when nobody reads the other end.
 *
 * Life, once per process, forward only (move_to asserts it): LOG_IDLE -> LOG_RUNNING (log_buffer_start)
 * -> LOG_FLUSHING (log_buffer_stop: the writer empties the buffer and ends) -> LOG_STOPPED. */
#include "server/log_buffer.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/common/deadline.h"

enum { SLOTS = LOG_BUFFER_BYTES / LOG_LINE_BYTES };
_Static_assert((SLOTS & (SLOTS - 1)) == 0, "the slot count is a power of two, so positions wrap cleanly");
_Static_assert(LOG_LINE_BYTES <= PIPE_BUF, "a line fits one write that a writable pipe takes whole");
/* How often the writer, waiting for stderr to take bytes, looks whether the stop's flush time is up. */
#define SINK_WAIT_SLICE_MS 50
/* How long the writer, after a short batch, lets lines gather before it takes the next: under a steady
 * stream of requests it then writes one batch of many lines a time and never sleeps on the futex, so
 * that a putter has no one to wake (one system call on the I/O thread per line otherwise). A line waits
 * at most this long more to be written. */
#define GATHER_US 1000

typedef enum log_state { LOG_IDLE, LOG_RUNNING, LOG_FLUSHING, LOG_STOPPED } log_state;

typedef struct slot {
    /* position for a putter to claim it; position + 1 once its line is published, for the writer */
    atomic_size_t sequence;
    size_t length;
    char text[LOG_LINE_BYTES];
} slot;

static struct {
    slot slots[SLOTS];
    atomic_size_t next_put;  /* the next position a putter claims */
    atomic_size_t next_take; /* the next position the writer takes: only the writer moves it */
    atomic_int writer_asleep;
    atomic_int state;
    deadline flush_by; /* set by log_buffer_stop before it publishes LOG_FLUSHING */
    atomic_uint_fast64_t written, dropped;
    pthread_t writer;
} ring;

/* The one way the state changes: always forward (the file's comment). */
static void move_to(log_state to) {
    log_state from = atomic_exchange(&ring.state, to);
    assert(to > from);
    (void)from;
}

static void count(atomic_uint_fast64_t *counter, uint64_t lines) {
    atomic_fetch_add_explicit(counter, lines, memory_order_relaxed);
}

static void futex_wait_while_asleep(void) {
    syscall(SYS_futex, &ring.writer_asleep, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
}

static void wake_writer(void) {
    if (atomic_exchange(&ring.writer_asleep, 0) == 1)
        syscall(SYS_futex, &ring.writer_asleep, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void log_buffer_put(const char *line, size_t length) {
    if (atomic_load_explicit(&ring.state, memory_order_acquire) != LOG_RUNNING) {
        count(&ring.dropped, 1);
        return;
    }
    size_t position = atomic_load_explicit(&ring.next_put, memory_order_relaxed);
    slot *s;
    for (;;) {
        s = &ring.slots[position & (SLOTS - 1)];
        size_t sequence = atomic_load_explicit(&s->sequence, memory_order_acquire);
        intptr_t lag = (intptr_t)sequence - (intptr_t)position;
        if (lag < 0) { /* the writer has not handed this slot back: full */
            count(&ring.dropped, 1);
            return;
        }
        if (lag == 0 && atomic_compare_exchange_weak_explicit(&ring.next_put, &position, position + 1,
                                                              memory_order_relaxed, memory_order_relaxed))
            break;
        if (lag > 0) position = atomic_load_explicit(&ring.next_put, memory_order_relaxed); /* claimed by another */
    }
    if (length > LOG_LINE_BYTES) {
        length = LOG_LINE_BYTES;
        memcpy(s->text, line, length - 1);
        s->text[length - 1] = '\n';
    } else {
        memcpy(s->text, line, length);
    }
    s->length = length;
    atomic_store(&s->sequence, position + 1); /* sequentially consistent: before the look at writer_asleep */
    if (atomic_load(&ring.writer_asleep) == 1) wake_writer();
}

/* The slot at the writer's position when its line is published, else NULL. */
static slot *published(size_t position) {
    slot *s = &ring.slots[position & (SLOTS - 1)];
    return atomic_load(&s->sequence) == position + 1 ? s : NULL;
}

static size_t taking(void) { return atomic_load_explicit(&ring.next_take, memory_order_relaxed); }

/* Moves published lines into `batch` while they fit; the lines taken. */
static size_t take_lines(char *batch, size_t capacity, size_t *used) {
    size_t position = taking(), lines = 0;
    slot *s;
    while ((s = published(position)) != NULL && *used + s->length <= capacity) {
        memcpy(batch + *used, s->text, s->length);
        *used += s->length;
        atomic_store_explicit(&s->sequence, position + SLOTS, memory_order_release); /* the next lap's */
        position++;
        lines++;
    }
    atomic_store_explicit(&ring.next_take, position, memory_order_relaxed);
    return lines;
}

static bool flush_time_up(void) {
    return atomic_load_explicit(&ring.state, memory_order_acquire) == LOG_FLUSHING &&
           deadline_remaining_ms(&ring.flush_by) == 0;
}

/* Writes a batch (at most PIPE_BUF bytes) to stderr; the bytes written, fewer when stderr fails or
 * the stop's flush time is up first. */
static size_t send_out(const char *bytes, size_t length) {
    size_t sent = 0;
    while (sent < length && !flush_time_up()) {
        struct pollfd sink = {.fd = STDERR_FILENO, .events = POLLOUT};
        int ready = poll(&sink, 1, SINK_WAIT_SLICE_MS);
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        ssize_t n = write(STDERR_FILENO, bytes + sent, length - sent);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) break;
        sent += (size_t)n;
    }
    return sent;
}

/* Counts a batch of `lines` lines of which the first `sent` bytes went out: the lines whole in those
 * bytes were written, the rest dropped. */
static void count_batch(const char *batch, size_t used, size_t sent, size_t lines) {
    size_t whole = lines;
    if (sent < used) {
        whole = 0;
        for (size_t i = 0; i < sent; i++) whole += batch[i] == '\n';
    }
    count(&ring.written, whole);
    count(&ring.dropped, lines - whole);
}

/* Sleeps until a putter publishes a line or the stop begins; false when the stop has begun and the
 * buffer is empty. */
static bool wait_for_lines(void) {
    atomic_store(&ring.writer_asleep, 1); /* sequentially consistent: before the look at the slot */
    bool stopping = atomic_load(&ring.state) == LOG_FLUSHING;
    if (published(taking()) != NULL || stopping) {
        atomic_store(&ring.writer_asleep, 0);
        return published(taking()) != NULL;
    }
    futex_wait_while_asleep();
    atomic_store(&ring.writer_asleep, 0);
    return true;
}

/* After a batch under half of PIPE_BUF, while running: lets lines gather for GATHER_US, awake (putters
 * see no sleeper to wake). */
static void gather_lines(size_t used) {
    if (used >= PIPE_BUF / 2 || atomic_load_explicit(&ring.state, memory_order_acquire) != LOG_RUNNING) return;
    struct timespec pause = {.tv_sec = 0, .tv_nsec = GATHER_US * 1000L};
    nanosleep(&pause, NULL);
}

static void *write_lines(void *unused) {
    (void)unused;
    char batch[PIPE_BUF];
    for (;;) {
        size_t used = 0;
        size_t lines = take_lines(batch, sizeof batch, &used);
        if (lines > 0) {
            count_batch(batch, used, send_out(batch, used), lines);
            if (!flush_time_up()) {
                gather_lines(used);
                continue;
            }
            /* the flush time is up: what is still buffered is given up */
            count(&ring.dropped, atomic_load(&ring.next_put) - taking());
            return NULL;
        }
        if (!wait_for_lines()) return NULL;
    }
}

bool log_buffer_start(void) {
    if (atomic_load(&ring.state) != LOG_IDLE) return false;
    for (size_t i = 0; i < SLOTS; i++) atomic_init(&ring.slots[i].sequence, i);
    move_to(LOG_RUNNING);
    int failed = pthread_create(&ring.writer, NULL, write_lines, NULL);
    if (failed != 0) {
        move_to(LOG_STOPPED);
        fprintf(stderr, "puzzled: cannot start the log writer: %s\n", strerror(failed));
    }
    return failed == 0;
}

void log_buffer_stop(void) {
    if (atomic_load(&ring.state) != LOG_RUNNING) return;
    ring.flush_by = deadline_after_ms(LOG_FLUSH_MS);
    move_to(LOG_FLUSHING);
    wake_writer();
    pthread_join(ring.writer, NULL);
    move_to(LOG_STOPPED);
    uint64_t dropped = atomic_load(&ring.dropped);
    if (dropped > 0)
        fprintf(stderr, "puzzled: %llu log lines dropped since the start (puzzled_log_lines_dropped_total)\n",
                (unsigned long long)dropped);
}

log_buffer_stats log_buffer_stats_read(void) {
    uint64_t written = atomic_load_explicit(&ring.written, memory_order_relaxed);
    uint64_t dropped = atomic_load_explicit(&ring.dropped, memory_order_relaxed);
    size_t taken = taking();
    size_t put = atomic_load_explicit(&ring.next_put, memory_order_relaxed);
    return (log_buffer_stats){written, dropped, put > taken ? put - taken : 0}; /* read apart: a gauge */
}
