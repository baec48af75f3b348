/* The access log (see access_log.h); each line is one write(2), so threads never interleave. */
#include "server/access_log.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

void access_log_write(const char *method, const char *path, int status, uint64_t bytes, double duration_ms,
                      const char *outcome) {
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
    char safe_path[512];
    size_t i = 0;
    for (; path[i] != '\0' && i + 1 < sizeof safe_path; i++) {
        unsigned char c = (unsigned char)path[i];
        safe_path[i] = c > 0x20 && c < 0x7f ? (char)c : '?'; /* no forged lines from a crafted path */
    }
    safe_path[i] = '\0';
    char line[1024];
    int n = snprintf(line, sizeof line, "%s %s %s %d %llu %.3fms %s\n", stamp, method, safe_path, status,
                     (unsigned long long)bytes, duration_ms, outcome);
    if (n < 0) return;
    if ((size_t)n >= sizeof line) {
        n = sizeof line - 1;
        line[n - 1] = '\n';
    }
    ssize_t written = write(STDERR_FILENO, line, (size_t)n);
    (void)written;
}
