/* The service's log on stderr: one access-log line per request and the messages of libmicrohttpd,
 * as text (the default) or as one JSON object per line (--log-format json) for log shippers. Every
 * line goes through the log buffer (server/log_buffer.h), so writing one never waits for stderr.
 * Start-up and stop messages are plain lines written directly. */
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

/* A line's level, for an operator to filter on: debug (a client that left, which every early close
 * of a stream makes), info (an access line), warn (every other message). */
typedef enum log_level { LOG_LEVEL_DEBUG, LOG_LEVEL_INFO, LOG_LEVEL_WARN } log_level;

/* The longest message text kept; a longer one is cut and ends in LOG_CUT_MARK. */
#define LOG_MESSAGE_BYTES 512
#define LOG_CUT_MARK "[cut]"

/* Once at start-up, before any line: starts the log's writer, JSON lines when `json`; false when the
 * writer cannot start. */
bool access_log_start(bool json);

/* At the stop, once no request or daemon writes any more: flushes the log (server/log_buffer.h). */
void access_log_stop(void);

void access_log_write(const access_entry *entry);

/* A message from `source` (a library's name), made printable and cut to LOG_MESSAGE_BYTES. */
void access_log_message(log_level level, const char *source, const char *text);

#endif
