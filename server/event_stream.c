/* Server-sent events for the progress of a long computation (see event_stream.h).
 *
 * The stream has no lock of its own: what the tick and the I/O thread share (the numbers sent,
 * the next progress time) is written and read under the request's lock (server/request.h), and the
 * connection is suspended and resumed only by the request, under that lock. The last event's text
 * is the worker's until the request is REQUEST_COMPUTED, the I/O thread's after.
 *
 * The tick is the stream's entry in the server's timer (server/timer.h), armed every EVENT_TICK_MS
 * from the stream's creation until its request has ended, and holding a reference to the request
 * meanwhile (nginx's timers hold a count of their request the same way). The registry lists the
 * streams for /metrics alone (its place in the lock order: server/README.md#locks).
 *
 * What the I/O thread sends each time it may write (compose()): the milestones recorded since the
 * last look (each once, unless its numbers were just sent), then the current numbers if EVENT_PROGRESS_MS have passed and they moved (or a
 * keep-alive comment after EVENT_KEEP_ALIVE_MS of silence), and once the job has finished, the
 * numbers if they moved and the last event. progress_read() orders milestones and views (see
 * core/common/progress.h), so `done` and `elapsed_ms` never decrease. */
#include "server/event_stream.h"
#include "core/common/monotonic.h"
#include "server/metrics.h"
#include "server/stream.h"
#include "server/suspension.h"

#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most of a result put into `out` at once: the event's text is never held whole beside the answer. */
enum { EVENT_CHUNK_BYTES = 64 * 1024 };

struct event_stream {
    request_context *request;
    struct MHD_Connection *connection;
    int64_t started_ns; /* the request's arrival: elapsed_ms counts from there */
    progress progress;
    byte_buffer final;    /* a failed event's text (without its id); empty for a result */
    byte_buffer result;   /* a result's answer, the one copy held, taken from the request */
    size_t result_charge; /* the bytes `result` takes from the stream budget (server/stream.h) */
    size_t result_sent;   /* the I/O thread's: how much of `result` is in `out` already */
    bool result_sending;  /* the I/O thread's: `result` goes out as data lines, a chunk at a time */
    /* the I/O thread's (milestones_sent and next_progress_ns written under the request's lock) */
    byte_buffer out;
    size_t out_sent;
    uint64_t *bytes_sent;
    bool final_sent;
    unsigned milestones_sent;
    unsigned events_sent; /* each event's `id:` is its number in the stream, from 1 */
    bool numbers_sent;    /* a progress event went out; last_done and last_total are its numbers */
    uint64_t last_done, last_total;
    int64_t next_progress_ns, last_write_ns;
    /* the registry's */
    event_stream *prev, *next;
    /* the tick's */
    timer *timer;
    timer_entry tick;
};

static mutex registry_lock = MUTEX_INITIALIZER;
static event_stream *registry_head GUARDED_BY(registry_lock);

static int64_t ms_to_ns(int64_t ms) { return ms * 1000000; }

bool event_stream_reconnecting(struct MHD_Connection *connection) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Last-Event-ID") != NULL;
}

/* ---- the tick ---- */

bool event_stream_due(event_stream *es, request_state state) {
    if (state >= REQUEST_COMPUTED || progress_abandoned(&es->progress)) return true;
    progress_view view = progress_read(&es->progress);
    if (state == REQUEST_COMPUTING) return view.begun;
    return monotonic_now_ns() >= es->next_progress_ns || view.milestones > es->milestones_sent;
}

/* On the timer thread, every EVENT_TICK_MS: while the request has not ended (and its job runs), a
 * client that left abandons the computation; the request is woken if something is due, and the tick
 * armed again. Once the request has ended, the tick's reference goes, its last touch. */
static void tick(timer_entry *entry) {
    event_stream *es = (event_stream *)((char *)entry - offsetof(event_stream, tick));
    request_lock(es->request);
    request_state state = request_state_of(es->request);
    if (state != REQUEST_ENDED) {
        if (state < REQUEST_COMPUTED && !progress_abandoned(&es->progress) && suspension_client_gone(es->connection)) {
            progress_abandon(&es->progress);
            metrics_client_gone();
        }
        request_wake(es->request);
        timer_arm(es->timer, &es->tick,
                  monotonic_now_ns() + ms_to_ns(EVENT_TICK_MS)); /* from its own callback: never fails */
    }
    request_unlock(es->request);
    if (state == REQUEST_ENDED) request_release(es->request);
}

/* ---- the request's side ---- */

static void fail_with(api_error *error, api_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail_with(api_error *error, api_error_kind kind, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    api_error_set(error, kind, NULL, fmt, args);
    va_end(args);
}

event_stream *event_stream_create(request_context *request, struct MHD_Connection *connection, int64_t started_ns,
                                  timer *ticks) {
    event_stream *es = calloc(1, sizeof *es);
    if (es == NULL) return NULL;
    es->request = request;
    es->connection = connection;
    es->started_ns = started_ns;
    progress_init(&es->progress);
    bb_init(&es->final);
    bb_init(&es->result);
    bb_init(&es->out);
    es->timer = ticks;
    timer_entry_init(&es->tick, tick);
    if (!timer_arm(ticks, &es->tick, monotonic_now_ns() + ms_to_ns(EVENT_TICK_MS))) {
        progress_destroy(&es->progress);
        free(es);
        return NULL;
    }
    request_lock(request);
    request_hold(request); /* the tick's, until it sees the request ended */
    request_unlock(request);
    mutex_lock(&registry_lock);
    es->next = registry_head;
    if (registry_head != NULL) registry_head->prev = es;
    registry_head = es;
    mutex_unlock(&registry_lock);
    return es;
}

progress *event_stream_progress(event_stream *es) { return &es->progress; }

/* A result the stream budget cannot hold becomes the failed event a stream over the budget gets. */
static void fail_over_budget(event_stream *es) {
    api_error error;
    fail_with(&error, API_OVERLOADED,
              "the open streams hold the server's whole stream buffer budget (%zu MiB, its --stream-budget-mb); retry "
              "after a moment",
              stream_figures_now().budget_bytes >> 20);
    event_stream_set_error(es, &error);
}

void event_stream_set_result(event_stream *es, byte_buffer *answer) {
    if (!stream_budget_take(answer->cap)) {
        bb_free(answer);
        fail_over_budget(es);
        return;
    }
    es->result = *answer;
    es->result_charge = answer->cap;
    bb_init(answer);
}

void event_stream_set_error(event_stream *es, const api_error *error) {
    bb_append_text(&es->final, "event: failed\ndata: ");
    api_error_write(error, &es->final);
    bb_append_text(&es->final, "\n\n");
}

bool event_stream_begun(event_stream *es) { return progress_read(&es->progress).begun; }

bool event_stream_abandoned(event_stream *es) { return progress_abandoned(&es->progress); }

void event_stream_free(event_stream *es) {
    if (es == NULL) return;
    mutex_lock(&registry_lock);
    if (es->prev != NULL) es->prev->next = es->next;
    else registry_head = es->next;
    if (es->next != NULL) es->next->prev = es->prev;
    mutex_unlock(&registry_lock);
    progress_destroy(&es->progress);
    bb_free(&es->final);
    bb_free(&es->result);
    stream_budget_give(es->result_charge);
    bb_free(&es->out);
    free(es);
}

/* ---- the I/O thread's writing ---- */

static void write_numbers(event_stream *es, uint64_t done, uint64_t total, const char *unit, int64_t at_ns) {
    char data[192];
    char total_text[24] = "null";
    if (total != PROGRESS_NO_TOTAL) snprintf(total_text, sizeof total_text, "%" PRIu64, total);
    int64_t elapsed_ms = at_ns > es->started_ns ? (at_ns - es->started_ns) / 1000000 : 0;
    snprintf(data, sizeof data,
             "id: %u\nevent: progress\ndata: {\"done\":%" PRIu64 ",\"total\":%s,\"unit\":\"%s\",\"elapsed_ms\":%" PRId64
             "}\n\n",
             ++es->events_sent, done, total_text, unit, elapsed_ms);
    bb_append_text(&es->out, data);
    es->numbers_sent = true;
    es->last_done = done;
    es->last_total = total;
}

static bool numbers_moved(const event_stream *es, const progress_view *view) {
    return !es->numbers_sent || view->done != es->last_done || view->total != es->last_total;
}

/* Puts the next chunk of the result into `out` (at most about EVENT_CHUNK_BYTES), as data lines: each
 * line of the answer after "data: ", so that a reader joining the lines with "\n" has it byte for
 * byte, and the event's blank line after the last. */
static void next_result_chunk(event_stream *es) {
    const byte_buffer *answer = &es->result;
    while (es->out.len < EVENT_CHUNK_BYTES && es->result_sent < answer->len) {
        const char *at = answer->data + es->result_sent;
        size_t left = answer->len - es->result_sent, room = EVENT_CHUNK_BYTES - es->out.len;
        const char *newline = memchr(at, '\n', left < room ? left : room);
        size_t line = newline != NULL ? (size_t)(newline - at) : left < room ? left : room;
        bb_append(&es->out, at, line);
        es->result_sent += line;
        if (newline != NULL) {
            bb_append_text(&es->out, "\ndata: ");
            es->result_sent++;
        }
    }
    if (es->result_sent == answer->len) {
        bb_append_text(&es->out, "\n\n");
        es->result_sending = false;
        es->final_sent = true;
    }
}

/* Under the request's lock: appends to `out` what is due at `now`, the last event once the job's
 * result is published (see the file's comment). */
static void compose(event_stream *es, int64_t now, bool computed) REQUIRES(es->request) {
    progress_view view = progress_read(&es->progress);
    for (; es->milestones_sent < view.milestones; es->milestones_sent++) {
        progress_milestone milestone = progress_milestone_at(&es->progress, es->milestones_sent);
        uint64_t done = milestone.done < view.total ? milestone.done : view.total;
        /* one step past several eighths (a small total): one event, not the same numbers again */
        if (!es->numbers_sent || done != es->last_done) write_numbers(es, done, view.total, view.unit, milestone.at_ns);
    }
    bool numbers_due = computed || now >= es->next_progress_ns;
    if (view.begun && numbers_due && numbers_moved(es, &view)) {
        write_numbers(es, view.done, view.total, view.unit, view.at_ns);
    } else if (now - es->last_write_ns >= ms_to_ns(EVENT_KEEP_ALIVE_MS)) {
        bb_append_text(&es->out, ": keep-alive\n\n");
    }
    if (numbers_due) es->next_progress_ns = now + ms_to_ns(EVENT_PROGRESS_MS);
    if (computed) {
        char id[24];
        snprintf(id, sizeof id, "id: %u\n", ++es->events_sent);
        bb_append_text(&es->out, id);
        if (es->final.len > 0) {
            bb_append(&es->out, es->final.data, es->final.len);
            es->final_sent = true;
        } else {
            bb_append_text(&es->out, "event: result\ndata: ");
            es->result_sending = true;
            next_result_chunk(es); /* a short result goes out whole, with its event's head */
        }
    }
    if (es->out.len > 0) es->last_write_ns = now;
}

/* A client that left ends the stream (libmicrohttpd closes the connection); otherwise, when nothing
 * is due, the connection waits suspended until the tick or the job's completion wakes it. */
static ssize_t read_events(void *cls, uint64_t position, char *buf, size_t max) {
    (void)position;
    event_stream *es = cls;
    if (es->out_sent == es->out.len && es->result_sending) {
        bb_clear(&es->out);
        es->out_sent = 0;
        next_result_chunk(es);
        if (es->out.out_of_memory) return MHD_CONTENT_READER_END_WITH_ERROR;
    } else if (es->out_sent == es->out.len) {
        bb_clear(&es->out);
        es->out_sent = 0;
        request_lock(es->request);
        bool computed = request_state_of(es->request) >= REQUEST_COMPUTED;
        if (es->final_sent || (!computed && progress_abandoned(&es->progress))) {
            request_unlock(es->request);
            return es->final_sent ? MHD_CONTENT_READER_END_OF_STREAM : MHD_CONTENT_READER_END_WITH_ERROR;
        }
        compose(es, monotonic_now_ns(), computed);
        if (es->out.len == 0) request_suspend(es->request);
        request_unlock(es->request);
        if (es->out.out_of_memory || (computed && es->final.out_of_memory)) return MHD_CONTENT_READER_END_WITH_ERROR;
        if (es->out.len == 0) return 0; /* suspended: woken when something is due */
    }
    size_t n = es->out.len - es->out_sent < max ? es->out.len - es->out_sent : max;
    memcpy(buf, es->out.data + es->out_sent, n);
    es->out_sent += n;
    *es->bytes_sent += n;
    return (ssize_t)n;
}

/* libmicrohttpd is done with the response: its reference to the request goes. */
static void release_request(void *cls) {
    event_stream *es = cls;
    request_release(es->request);
}

struct MHD_Response *event_stream_response(event_stream *es, uint64_t *bytes_sent) {
    struct MHD_Response *response =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read_events, es, release_request);
    if (response == NULL) return NULL;
    request_lock(es->request);
    request_hold(es->request);
    request_unlock(es->request);
    MHD_add_response_header(response, "X-Accel-Buffering", "no");
    es->bytes_sent = bytes_sent;
    es->last_write_ns = monotonic_now_ns(); /* the headers: the first keep-alive is due EVENT_KEEP_ALIVE_MS later */
    return response;
}

event_stream_stats event_stream_stats_read(void) {
    event_stream_stats stats = {0, 0};
    int64_t now = monotonic_now_ns();
    mutex_lock(&registry_lock);
    for (event_stream *es = registry_head; es != NULL; es = es->next) {
        request_lock(es->request);
        bool computing = request_state_of(es->request) < REQUEST_COMPUTED;
        request_unlock(es->request);
        if (!computing) continue;
        stats.computing++;
        double age = (double)(now - es->started_ns) / 1e9;
        if (age > stats.oldest_seconds) stats.oldest_seconds = age;
    }
    mutex_unlock(&registry_lock);
    return stats;
}
