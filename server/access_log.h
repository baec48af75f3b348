/* One access-log line per request on stderr: time, method, path, status, bytes, duration, outcome. */
#ifndef PUZZLED_SERVER_ACCESS_LOG_H
#define PUZZLED_SERVER_ACCESS_LOG_H

#include <stdint.h>

/* `outcome` is "ok", "client-gone", "timeout", "error" or "shutdown". */
void access_log_write(const char *method, const char *path, int status, uint64_t bytes, double duration_ms,
                      const char *outcome);

#endif
