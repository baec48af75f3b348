/* Prometheus metrics, in the text exposition format 0.0.4, served at GET /metrics.
 *
 * Written by hand: Debian packages no Prometheus client library for C, and what the service needs is
 * a few fixed families of counters, gauges and histograms, all updated with relaxed atomics from any
 * thread and read on scrape. The families:
 *   puzzled_requests_total{route,method,status}        answers given
 *   puzzled_request_duration_seconds{route}             a histogram, from the request line to the end
 *   puzzled_requests_in_flight                          begun and not completed
 *   puzzled_queue_waiting{lane} / puzzled_workers_busy  the compute pool now
 *   puzzled_queue_rejections_total{reason} / _expired_total  refused at once (wait, full, stopping) / at
 *                                                       their deadline
 *   puzzled_queue_wait_seconds                          a histogram, the time jobs waited for a thread
 *   puzzled_queue_predicted_wait_seconds{lane} / _target_wait_seconds  admission's predicted wait / target
 *   puzzled_queue_mean_run_seconds{lane}                the mean charged to jobs without an estimate
 *   puzzled_streamed_bytes_total                        body bytes of streamed answers
 *   puzzled_streams_aborted_total                       streams the client left, or that were cut
 *   puzzled_progress_computations_in_flight / _oldest_seconds computations followed as server-sent events
 *                                                       (server/event_stream.h) still running, and the
 *                                                       age of the oldest
 *   puzzled_stream_buffer_bytes / _budget_bytes         stream buffers held now / the budget
 *   puzzled_stream_call_max_bytes / _seconds            the largest / longest direct stream call
 *   puzzled_stream_call_bound_bytes                     the most one direct stream call may produce
 *   puzzled_deadline_exceeded_total                     503 deadline_exceeded answers
 *   puzzled_client_gone_total                           computations cancelled as their client left
 *   puzzled_log_lines_written_total / _dropped_total    log lines handed to stderr / dropped rather than
 *                                                       wait (server/log_buffer.h)
 *   puzzled_log_lines_buffered                          log lines waiting for the log's writer now
 *   puzzled_build_info{version,commit}                  1
 *   process_resident_memory_bytes, process_open_fds, process_start_time_seconds
 * Routes are the routing table's paths, or "unmatched", so the label set stays bounded whatever
 * paths clients send. */
#ifndef PUZZLED_SERVER_METRICS_H
#define PUZZLED_SERVER_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "api/api.h"
#include "server/compute_pool.h"
#include "server/routes.h"

typedef struct request_record {
    const route *route; /* NULL: no route matched */
    const char *method;
    int status;
    double seconds;
    uint64_t bytes;
    bool streamed;
    bool aborted;           /* the answer did not complete (client left, stream cut, timeout) */
    bool deadline_exceeded; /* answered 503 deadline_exceeded */
} request_record;

/* Once at start-up, before requests: the start time, and the pool whose state the scrape reads. */
void metrics_start(compute_pool *pool);
/* Once at stop, before the pool is destroyed. */
void metrics_stop(void);

void metrics_request_began(void);
void metrics_request_ended(const request_record *record);
/* A computation (waiting or running) was cancelled because its client closed its connection. */
void metrics_client_gone(void);

/* GET /metrics (routed in server/routes.c). */
extern const api_endpoint metrics_endpoint;

#endif
