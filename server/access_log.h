/* One access-log line per request on stderr, as text (the default) or as one JSON object per line
 * (--log-format json) for log shippers. */
#ifndef PUZZLED_SERVER_ACCESS_LOG_H
#define PUZZLED_SERVER_ACCESS_LOG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct access_entry {
    const char *request_id;
    const char *client; /* the client's address (server/clients.h) */
    const char *method;
    const char *path;
    int status;
    uint64_t bytes;
    double duration_ms;
    /* "ok", "aborted" (the client left mid-answer, or a stream failed), "client-gone" (left before
     * the answer), "timeout", "shutdown" or "error" */
    const char *outcome;
} access_entry;

/* Once at start-up: true for JSON lines. */
void access_log_use_json(bool json);

void access_log_write(const access_entry *entry);

#endif
