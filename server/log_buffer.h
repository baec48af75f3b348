/* The service log's buffer: a bounded ring of lines that any thread fills without ever waiting, and
 * one writer thread, started with the server, that empties it to stderr. A full buffer (the log's
 * reader is slow or stopped: a container's log driver, a pipe nobody reads) drops the line and counts
 * it, so an I/O thread never stalls on the log. The stop flushes what is buffered, for at most
 * LOG_FLUSH_MS. */
#ifndef PUZZLED_SERVER_LOG_BUFFER_H
#define PUZZLED_SERVER_LOG_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most the buffer holds, in bytes: LOG_BUFFER_BYTES / LOG_LINE_BYTES lines. */
#define LOG_BUFFER_BYTES ((size_t)1 << 20)
/* The longest line, its newline included; a longer one is cut to this by log_buffer_put. */
#define LOG_LINE_BYTES 1024
/* How long the stop waits for the buffered lines to reach stderr; those still buffered then are
 * counted as dropped. */
#define LOG_FLUSH_MS 2000

typedef struct log_buffer_stats {
    uint64_t written;  /* lines handed to stderr */
    uint64_t dropped;  /* lines given up: the buffer full, stderr failing, or the stop's flush time up */
    uint64_t buffered; /* lines waiting for the writer now */
} log_buffer_stats;

/* Starts the writer thread; false (after saying why on stderr) when it cannot. Until it runs, and
 * once log_buffer_stop has begun, every line is dropped. */
bool log_buffer_start(void);

/* Adds one line (`length` bytes ending in a newline) for the writer, or drops it when the buffer is
 * full; never waits. Any thread. */
void log_buffer_put(const char *line, size_t length);

/* Writes what is buffered (for at most LOG_FLUSH_MS), ends the writer and says on stderr how many lines
 * were dropped since the start, if any. Call it once nothing puts lines any more (the daemons have
 * stopped); harmless when the writer never started. */
void log_buffer_stop(void);

log_buffer_stats log_buffer_stats_read(void);

#endif
