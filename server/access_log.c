/* The service's log (see access_log.h): each line is formatted here, on the thread that has it, and
 * handed whole to the log buffer, whose writer keeps lines from interleaving.
 * Text: an access line is `TIME METHOD PATH STATUS BYTES DURATIONms OUTCOME ID CLIENT`, a message
 * `TIME LEVEL SOURCE TEXT` (a level is lower case, a method upper case). JSON: the same fields as an
 * object, with "level" on every line ("info" on access lines). Client-sent text (the path, a URL
 * inside a library's message) is made printable ASCII first (server/printable.h). */
#include "server/access_log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/json_writer.h"
#include "server/log_buffer.h"
#include "server/printable.h"

static bool json_lines;

static const char *const level_names[] = {
    [LOG_LEVEL_DEBUG] = "debug",
    [LOG_LEVEL_INFO] = "info",
    [LOG_LEVEL_WARN] = "warn",
};

bool access_log_start(bool json) {
    json_lines = json;
    return log_buffer_start();
}

void access_log_stop(void) { log_buffer_stop(); }

/* Now, as the log writes it: 2026-01-31T23:59:59Z (STAMP_LENGTH characters). Formatted once a second
 * per thread: every line of that second reuses it. */
#define STAMP_LENGTH 20
static void timestamp(char stamp[32]) {
    static _Thread_local time_t formatted_second = -1;
    static _Thread_local char formatted[32];
    time_t now = time(NULL);
    if (now != formatted_second) {
        struct tm utc;
        gmtime_r(&now, &utc);
        strftime(formatted, sizeof formatted, "%Y-%m-%dT%H:%M:%SZ", &utc);
        formatted_second = now;
    }
    memcpy(stamp, formatted, STAMP_LENGTH + 1);
}

/* A line snprintf made in `line` (`capacity` bytes): cut to end in a newline when it did not fit. */
static void put_formatted(char *line, size_t capacity, int n) {
    if (n < 0) return;
    if ((size_t)n >= capacity) {
        n = (int)capacity - 1;
        line[n - 1] = '\n';
    }
    log_buffer_put(line, (size_t)n);
}

static void put_json(json_writer *line) {
    jw_str(line, "}\n");
    if (!line->out_of_memory) log_buffer_put(line->data, line->len);
    bb_free(line);
}

/* The opening of a JSON line: {"time":…,"level":… */
static void open_json(json_writer *line, const char *stamp, log_level level) {
    bb_init(line);
    jw_str(line, "{\"time\":");
    jw_cstring(line, stamp);
    jw_str(line, ",\"level\":");
    jw_cstring(line, level_names[level]);
}

/* An access line put together by appending to `text` (LOG_LINE_BYTES), without stdio's format parsing:
 * it is made for every request. What does not fit is left out, and the line still ends in a newline. */
typedef struct text_line {
    char text[LOG_LINE_BYTES];
    size_t length; /* the newline's room kept: at most LOG_LINE_BYTES - 1 */
} text_line;

static void append(text_line *line, const char *bytes, size_t length) {
    size_t room = LOG_LINE_BYTES - 1 - line->length;
    if (length > room) length = room;
    memcpy(line->text + line->length, bytes, length);
    line->length += length;
}

static void append_text(text_line *line, const char *text) { append(line, text, strlen(text)); }

/* `value` in decimal, at least `digits` digits (zeros in front). */
static void append_decimal(text_line *line, uint64_t value, int digits) {
    char decimal[24];
    char *first = decimal + sizeof decimal;
    do {
        *--first = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0 || decimal + sizeof decimal - first < digits);
    append(line, first, (size_t)(decimal + sizeof decimal - first));
}

static void write_text(const access_entry *entry, const char *stamp, const char *safe_path) {
    text_line line = {.length = 0};
    append_text(&line, stamp);
    append(&line, " ", 1);
    append_text(&line, entry->method);
    append(&line, " ", 1);
    append_text(&line, safe_path);
    append(&line, " ", 1);
    append_decimal(&line, entry->status > 0 ? (uint64_t)entry->status : 0, 1);
    append(&line, " ", 1);
    append_decimal(&line, entry->bytes, 1);
    append(&line, " ", 1);
    /* the duration to the microsecond, as %.3f of the milliseconds writes it */
    uint64_t micros = entry->duration_ms > 0 ? (uint64_t)(entry->duration_ms * 1000 + 0.5) : 0;
    append_decimal(&line, micros / 1000, 1);
    append(&line, ".", 1);
    append_decimal(&line, micros % 1000, 3);
    append(&line, "ms ", 3);
    append_text(&line, entry->outcome);
    append(&line, " ", 1);
    append_text(&line, entry->request_id);
    append(&line, " ", 1);
    append_text(&line, entry->client);
    line.text[line.length++] = '\n';
    log_buffer_put(line.text, line.length);
}

static void write_json(const access_entry *entry, const char *stamp, const char *safe_path) {
    json_writer line;
    open_json(&line, stamp, LOG_LEVEL_INFO);
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
    put_json(&line);
}

void access_log_write(const access_entry *entry) {
    char stamp[32];
    timestamp(stamp);
    char safe_path[512];
    printable_ascii(safe_path, sizeof safe_path, entry->path);
    if (json_lines) write_json(entry, stamp, safe_path);
    else write_text(entry, stamp, safe_path);
}

void access_log_message(log_level level, const char *source, const char *text) {
    char stamp[32];
    timestamp(stamp);
    char shown[LOG_MESSAGE_BYTES];
    size_t length = strlen(text);
    while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == ' ')) length--;
    printable_text(shown, sizeof shown, text, length);
    if (length >= sizeof shown) memcpy(shown + sizeof shown - sizeof LOG_CUT_MARK, LOG_CUT_MARK, sizeof LOG_CUT_MARK);
    if (json_lines) {
        json_writer line;
        open_json(&line, stamp, level);
        jw_str(&line, ",\"source\":");
        jw_cstring(&line, source);
        jw_str(&line, ",\"message\":");
        jw_cstring(&line, shown);
        put_json(&line);
        return;
    }
    char line[LOG_LINE_BYTES];
    put_formatted(line, sizeof line,
                  snprintf(line, sizeof line, "%s %s %s %s\n", stamp, level_names[level], source, shown));
}
