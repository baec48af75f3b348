/* The access log (see access_log.h); each line is one write(2), so threads never interleave.
 * Text: `TIME METHOD PATH STATUS BYTES DURATIONms OUTCOME ID CLIENT`; JSON: the same fields as an object.
 * The path is made printable ASCII first (server/printable.h). */
#include "server/access_log.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "base/json_writer.h"
#include "server/printable.h"

static bool json_lines;

void access_log_use_json(bool json) { json_lines = json; }

static void write_line(const char *line, size_t length) {
    ssize_t written = write(STDERR_FILENO, line, length);
    (void)written;
}

static void write_text(const access_entry *entry, const char *stamp, const char *safe_path) {
    char line[1024];
    int n = snprintf(line, sizeof line, "%s %s %s %d %llu %.3fms %s %s %s\n", stamp, entry->method, safe_path,
                     entry->status, (unsigned long long)entry->bytes, entry->duration_ms, entry->outcome,
                     entry->request_id, entry->client);
    if (n < 0) return;
    if ((size_t)n >= sizeof line) {
        n = sizeof line - 1;
        line[n - 1] = '\n';
    }
    write_line(line, (size_t)n);
}

static void write_json(const access_entry *entry, const char *stamp, const char *safe_path) {
    json_writer line;
    bb_init(&line);
    jw_str(&line, "{\"time\":");
    jw_cstring(&line, stamp);
    jw_str(&line, ",\"id\":");
    jw_cstring(&line, entry->request_id);
    jw_str(&line, ",\"client\":");
    jw_cstring(&line, entry->client);
    jw_str(&line, ",\"method\":");
    jw_cstring(&line, entry->method);
    jw_str(&line, ",\"path\":");
    jw_cstring(&line, safe_path);
    jw_str(&line, ",\"status\":");
    jw_int(&line, entry->status);
    jw_str(&line, ",\"bytes\":");
    jw_uint(&line, entry->bytes);
    char duration[32];
    snprintf(duration, sizeof duration, ",\"duration_ms\":%.3f", entry->duration_ms);
    jw_str(&line, duration);
    jw_str(&line, ",\"outcome\":");
    jw_cstring(&line, entry->outcome);
    jw_str(&line, "}\n");
    if (!line.out_of_memory) write_line(line.data, line.len);
    bb_free(&line);
}

void access_log_write(const access_entry *entry) {
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
    char safe_path[512];
    printable_ascii(safe_path, sizeof safe_path, entry->path);
    if (json_lines) write_json(entry, stamp, safe_path);
    else write_text(entry, stamp, safe_path);
}
