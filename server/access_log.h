/* One access-log line per request on stderr: time, method, path, status, bytes, duration, outcome. */
#ifndef PUZZLED_SERVER_ACCESS_LOG_H
#define PUZZLED_SERVER_ACCESS_LOG_H

#include <stdint.h>

/* `outcome` is "ok", "aborted" (the client left mid-answer, or a stream failed), "client-gone"
 * (left before the answer), "timeout", "shutdown" or "error". */
void access_log_write(const char *method, const char *path, int status, uint64_t bytes, double duration_ms,
                      const char *outcome);

#endif
