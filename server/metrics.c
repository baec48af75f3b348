/* Prometheus metrics (see metrics.h). Counters live in one array indexed by route, method and status
 * code (100..599), allocated once at start for the routing table's size, so recording a request is
 * three relaxed atomic additions and a scrape walks the array printing what is not zero. */
#include "server/metrics.h"

#include <dirent.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "server/event_stream.h"
#include "server/log_buffer.h"
#include "server/stream.h"

enum { METHOD_LABELS = 5, FIRST_STATUS = 100, STATUS_SLOTS = 500 };
static const char *const method_labels[METHOD_LABELS] = {"GET", "HEAD", "POST", "OPTIONS", "other"};

/* Upper bounds of the latency histogram's buckets, in seconds (+Inf is implied). */
static const double bucket_bounds[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
enum { BUCKETS = sizeof bucket_bounds / sizeof bucket_bounds[0] };

typedef struct route_latency {
    atomic_uint_fast64_t in_bucket[BUCKETS + 1]; /* not cumulative; the last is above every bound */
    atomic_uint_fast64_t count;
    atomic_uint_fast64_t sum_microseconds;
} route_latency;

static struct {
    size_t routes;                  /* label slots: the routing table's routes, then "unmatched" */
    atomic_uint_fast64_t *requests; /* [routes][METHOD_LABELS][STATUS_SLOTS] */
    route_latency *latency;         /* [routes] */
    atomic_int_fast64_t in_flight;
    atomic_uint_fast64_t streamed_bytes, streams_aborted, deadline_exceeded, client_gone;
    compute_pool *pool;
    time_t started;
} metrics;

void metrics_start(compute_pool *pool) {
    metrics.routes = route_count() + 1;
    metrics.requests = calloc(metrics.routes * METHOD_LABELS * STATUS_SLOTS, sizeof *metrics.requests);
    metrics.latency = calloc(metrics.routes, sizeof *metrics.latency);
    metrics.pool = pool;
    metrics.started = time(NULL);
}

void metrics_stop(void) {
    free(metrics.requests);
    free(metrics.latency);
    metrics.requests = NULL;
    metrics.latency = NULL;
    metrics.pool = NULL;
}

void metrics_request_began(void) { atomic_fetch_add_explicit(&metrics.in_flight, 1, memory_order_relaxed); }

static size_t method_index(const char *method) {
    for (size_t i = 0; i + 1 < METHOD_LABELS; i++)
        if (strcmp(method, method_labels[i]) == 0) return i;
    return METHOD_LABELS - 1;
}

static size_t route_slot(const route *r) { return r != NULL ? route_index(r) : metrics.routes - 1; }

static void add(atomic_uint_fast64_t *counter, uint64_t amount) {
    atomic_fetch_add_explicit(counter, amount, memory_order_relaxed);
}

void metrics_request_ended(const request_record *record) {
    atomic_fetch_sub_explicit(&metrics.in_flight, 1, memory_order_relaxed);
    if (metrics.requests == NULL) return;
    size_t slot = route_slot(record->route);
    if (record->status >= FIRST_STATUS && record->status < FIRST_STATUS + STATUS_SLOTS)
        add(&metrics.requests[(slot * METHOD_LABELS + method_index(record->method)) * STATUS_SLOTS +
                              (size_t)(record->status - FIRST_STATUS)],
            1);
    route_latency *latency = &metrics.latency[slot];
    size_t bucket = 0;
    while (bucket < BUCKETS && record->seconds > bucket_bounds[bucket]) bucket++;
    add(&latency->in_bucket[bucket], 1);
    add(&latency->count, 1);
    add(&latency->sum_microseconds, (uint64_t)(record->seconds * 1e6));
    if (record->streamed) add(&metrics.streamed_bytes, record->bytes);
    if (record->streamed && record->aborted) add(&metrics.streams_aborted, 1);
    if (record->deadline_exceeded) add(&metrics.deadline_exceeded, 1);
}

void metrics_client_gone(void) { add(&metrics.client_gone, 1); }

static uint64_t load(atomic_uint_fast64_t *counter) { return atomic_load_explicit(counter, memory_order_relaxed); }

static const char *route_label(size_t slot) { return slot + 1 < metrics.routes ? route_at(slot)->path : "unmatched"; }

static void family(byte_buffer *out, const char *name, const char *type, const char *help) {
    char line[320];
    snprintf(line, sizeof line, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
    bb_append_text(out, line);
}

static void sample(byte_buffer *out, const char *name, const char *labels, double value) {
    char line[512];
    snprintf(line, sizeof line, "%s%s %.17g\n", name, labels, value);
    bb_append_text(out, line);
}

static void write_requests(byte_buffer *out) {
    family(out, "puzzled_requests_total", "counter", "Answers given, by route, method and status.");
    for (size_t slot = 0; slot < metrics.routes; slot++)
        for (size_t method = 0; method < METHOD_LABELS; method++)
            for (size_t status = 0; status < STATUS_SLOTS; status++) {
                uint64_t n = load(&metrics.requests[(slot * METHOD_LABELS + method) * STATUS_SLOTS + status]);
                if (n == 0) continue;
                char labels[256];
                snprintf(labels, sizeof labels, "{route=\"%s\",method=\"%s\",status=\"%zu\"}", route_label(slot),
                         method_labels[method], status + FIRST_STATUS);
                sample(out, "puzzled_requests_total", labels, (double)n);
            }
}

static void write_latency(byte_buffer *out) {
    family(out, "puzzled_request_duration_seconds", "histogram",
           "Time from the request line to the end of the answer, by route.");
    for (size_t slot = 0; slot < metrics.routes; slot++) {
        route_latency *latency = &metrics.latency[slot];
        uint64_t count = load(&latency->count);
        if (count == 0) continue;
        char labels[256];
        uint64_t cumulative = 0;
        for (size_t bucket = 0; bucket <= BUCKETS; bucket++) {
            cumulative += load(&latency->in_bucket[bucket]);
            if (bucket < BUCKETS)
                snprintf(labels, sizeof labels, "{route=\"%s\",le=\"%g\"}", route_label(slot), bucket_bounds[bucket]);
            else snprintf(labels, sizeof labels, "{route=\"%s\",le=\"+Inf\"}", route_label(slot));
            sample(out, "puzzled_request_duration_seconds_bucket", labels, (double)cumulative);
        }
        snprintf(labels, sizeof labels, "{route=\"%s\"}", route_label(slot));
        sample(out, "puzzled_request_duration_seconds_sum", labels, (double)load(&latency->sum_microseconds) / 1e6);
        sample(out, "puzzled_request_duration_seconds_count", labels, (double)cumulative);
    }
}

static void write_pool(byte_buffer *out) {
    compute_pool_stats stats = compute_pool_stats_read(metrics.pool);
    family(out, "puzzled_requests_in_flight", "gauge", "Requests begun and not yet completed.");
    sample(out, "puzzled_requests_in_flight", "",
           (double)atomic_load_explicit(&metrics.in_flight, memory_order_relaxed));
    family(out, "puzzled_workers", "gauge", "Main compute workers (--workers).");
    sample(out, "puzzled_workers", "", stats.workers);
    family(out, "puzzled_workers_busy", "gauge", "Main worker slots in use (running a job or a sub-task).");
    sample(out, "puzzled_workers_busy", "", stats.busy);
    family(out, "puzzled_queue_waiting", "gauge", "Requests waiting for a thread, by lane.");
    sample(out, "puzzled_queue_waiting", "{lane=\"express\"}", stats.express_waiting);
    sample(out, "puzzled_queue_waiting", "{lane=\"main\"}", stats.main_waiting);
    family(out, "puzzled_queue_limit", "gauge", "Waiting requests each lane holds at most, a memory guard (--queue).");
    sample(out, "puzzled_queue_limit", "", stats.queue_limit);
    family(out, "puzzled_queue_target_wait_seconds", "gauge",
           "The longest predicted wait a request is admitted to (its own time limit, when shorter, instead).");
    sample(out, "puzzled_queue_target_wait_seconds", "", COMPUTE_MAX_WAIT_MS / 1e3);
    family(out, "puzzled_queue_predicted_wait_seconds", "gauge",
           "What a new request would wait in each lane now: the charges waiting and running, shared by its threads.");
    sample(out, "puzzled_queue_predicted_wait_seconds", "{lane=\"express\"}", stats.express_wait_seconds);
    sample(out, "puzzled_queue_predicted_wait_seconds", "{lane=\"main\"}", stats.main_wait_seconds);
    family(out, "puzzled_queue_mean_run_seconds", "gauge",
           "Each lane's mean run time of the runs that measured their work, charged (capped) to requests without "
           "an estimate.");
    sample(out, "puzzled_queue_mean_run_seconds", "{lane=\"express\"}", stats.express_mean_seconds);
    sample(out, "puzzled_queue_mean_run_seconds", "{lane=\"main\"}", stats.main_mean_seconds);
    family(out, "puzzled_queue_rejections_total", "counter",
           "Requests refused at admission, by reason: a wait past their own time limit (deadline: 503 "
           "deadline_exceeded), a predicted wait over 1 s (wait), the --queue memory guard (full), a stop (stopping): "
           "503 overloaded.");
    sample(out, "puzzled_queue_rejections_total", "{reason=\"wait\"}", (double)stats.rejected[COMPUTE_TOO_LONG_A_WAIT]);
    sample(out, "puzzled_queue_rejections_total", "{reason=\"deadline\"}",
           (double)stats.rejected[COMPUTE_PAST_ITS_LIMIT]);
    sample(out, "puzzled_queue_rejections_total", "{reason=\"full\"}", (double)stats.rejected[COMPUTE_FULL]);
    sample(out, "puzzled_queue_rejections_total", "{reason=\"stopping\"}", (double)stats.rejected[COMPUTE_STOPPED]);
    family(out, "puzzled_queue_wait_seconds", "histogram", "Time the jobs that ran waited in a queue for a thread.");
    static const double bounds[COMPUTE_WAIT_BUCKETS] = COMPUTE_WAIT_BOUNDS;
    uint64_t cumulative = 0;
    for (size_t bucket = 0; bucket <= COMPUTE_WAIT_BUCKETS; bucket++) {
        char labels[32];
        cumulative += stats.waited[bucket];
        if (bucket < COMPUTE_WAIT_BUCKETS) snprintf(labels, sizeof labels, "{le=\"%g\"}", bounds[bucket]);
        else snprintf(labels, sizeof labels, "{le=\"+Inf\"}");
        sample(out, "puzzled_queue_wait_seconds_bucket", labels, (double)cumulative);
    }
    sample(out, "puzzled_queue_wait_seconds_sum", "", stats.waited_seconds);
    sample(out, "puzzled_queue_wait_seconds_count", "", (double)cumulative);
    family(out, "puzzled_queue_expired_total", "counter", "Waiting requests refused at their deadline.");
    sample(out, "puzzled_queue_expired_total", "", (double)stats.expired);
}

static void write_streams(byte_buffer *out) {
    family(out, "puzzled_streamed_bytes_total", "counter", "Body bytes of streamed answers handed to the network.");
    sample(out, "puzzled_streamed_bytes_total", "", (double)load(&metrics.streamed_bytes));
    family(out, "puzzled_streams_aborted_total", "counter", "Streamed answers that did not complete.");
    sample(out, "puzzled_streams_aborted_total", "", (double)load(&metrics.streams_aborted));
    event_stream_stats followed = event_stream_stats_read();
    family(out, "puzzled_progress_computations_in_flight", "gauge",
           "Computations followed with Accept: text/event-stream, admitted and not ended (running or waiting for a "
           "worker).");
    sample(out, "puzzled_progress_computations_in_flight", "", followed.computing);
    family(out, "puzzled_progress_computations_oldest_seconds", "gauge",
           "Age of the oldest of them, from its request's arrival (0: none).");
    sample(out, "puzzled_progress_computations_oldest_seconds", "", followed.oldest_seconds);
    stream_figures figures = stream_figures_now();
    family(out, "puzzled_stream_buffer_bytes", "gauge", "Stream buffer bytes the open streams hold (charged).");
    sample(out, "puzzled_stream_buffer_bytes", "", (double)figures.held_bytes);
    family(out, "puzzled_stream_buffer_budget_bytes", "gauge", "The budget of all streams' buffers.");
    sample(out, "puzzled_stream_buffer_budget_bytes", "", (double)figures.budget_bytes);
    family(out, "puzzled_stream_call_max_bytes", "gauge", "The most bytes one direct stream call produced.");
    sample(out, "puzzled_stream_call_max_bytes", "", (double)figures.longest_call_bytes);
    family(out, "puzzled_stream_call_bound_bytes", "gauge", "The most bytes one direct stream call may produce.");
    sample(out, "puzzled_stream_call_bound_bytes", "", (double)figures.call_bound_bytes);
    family(out, "puzzled_stream_call_max_seconds", "gauge", "The longest one direct stream call took.");
    sample(out, "puzzled_stream_call_max_seconds", "", figures.longest_call_seconds);
    family(out, "puzzled_deadline_exceeded_total", "counter", "Answers 503 deadline_exceeded.");
    sample(out, "puzzled_deadline_exceeded_total", "", (double)load(&metrics.deadline_exceeded));
    family(out, "puzzled_client_gone_total", "counter",
           "Computations cancelled while they waited or ran because their client closed its connection.");
    sample(out, "puzzled_client_gone_total", "", (double)load(&metrics.client_gone));
}

static void write_log(byte_buffer *out) {
    log_buffer_stats log = log_buffer_stats_read();
    family(out, "puzzled_log_lines_written_total", "counter", "Log lines (access lines, messages) handed to stderr.");
    sample(out, "puzzled_log_lines_written_total", "", (double)log.written);
    family(out, "puzzled_log_lines_dropped_total", "counter",
           "Log lines dropped rather than wait for stderr: the log buffer full (a slow or stopped log reader), "
           "stderr failing, or the stop's flush time up.");
    sample(out, "puzzled_log_lines_dropped_total", "", (double)log.dropped);
    family(out, "puzzled_log_lines_buffered", "gauge", "Log lines waiting for the log's writer.");
    sample(out, "puzzled_log_lines_buffered", "", (double)log.buffered);
}

static double resident_bytes(void) {
    FILE *statm = fopen("/proc/self/statm", "r");
    unsigned long size = 0, resident = 0;
    if (statm == NULL) return 0;
    if (fscanf(statm, "%lu %lu", &size, &resident) != 2) resident = 0;
    fclose(statm);
    return (double)resident * (double)sysconf(_SC_PAGESIZE);
}

static double open_descriptors(void) {
    DIR *fds = opendir("/proc/self/fd");
    if (fds == NULL) return 0;
    double count = -1; /* the directory's own descriptor */
    for (struct dirent *entry = readdir(fds); entry != NULL; entry = readdir(fds))
        if (entry->d_name[0] != '.') count++;
    closedir(fds);
    return count;
}

static void write_process(byte_buffer *out) {
    family(out, "puzzled_build_info", "gauge", "The running build: version and commit, as labels.");
    sample(out, "puzzled_build_info", "{version=\"" PUZZLED_VERSION "\",commit=\"" PUZZLED_COMMIT "\"}", 1);
    family(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
    sample(out, "process_resident_memory_bytes", "", resident_bytes());
    family(out, "process_open_fds", "gauge", "Number of open file descriptors.");
    sample(out, "process_open_fds", "", open_descriptors());
    family(out, "process_start_time_seconds", "gauge", "Start time of the process since the epoch, in seconds.");
    sample(out, "process_start_time_seconds", "", (double)metrics.started);
}

static const api_field fields[] = {{NULL, 0}};

static bool answer_metrics(api_request *req, api_response *res) {
    (void)req;
    byte_buffer *out = &res->body;
    write_requests(out);
    write_latency(out);
    write_pool(out);
    write_streams(out);
    write_log(out);
    write_process(out);
    res->content_type = "text/plain; version=0.0.4; charset=utf-8";
    return true;
}

const api_endpoint metrics_endpoint = {.fields = fields, .handler = answer_metrics, .varies = api_always_varies};
