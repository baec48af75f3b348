/* --cors-origin's list and the origin an answer may be read from (see cors.h). The list is short
 * and checked at start-up, so each answer walks it as text: no table to keep. */
#include "server/cors.h"

#include <stdio.h>
#include <string.h>

/* One entry of the list, trimmed of the spaces around it: [start, start + length). */
typedef struct cors_entry {
    const char *start;
    size_t length;
} cors_entry;

/* The entry starting at *cursor, which moves past it and its comma; false at the end of the list. */
static bool next_entry(const char **cursor, cors_entry *entry) {
    const char *p = *cursor;
    if (*p == '\0') return false;
    const char *comma = strchr(p, ',');
    const char *end = comma != NULL ? comma : p + strlen(p);
    *cursor = comma != NULL ? comma + 1 : end;
    while (p < end && *p == ' ') p++;
    while (end > p && end[-1] == ' ') end--;
    *entry = (cors_entry){p, (size_t)(end - p)};
    return true;
}

/* An origin as browsers serialise it (RFC 6454): scheme "://" host [":" port], nothing after. */
static bool is_origin(const cors_entry *entry) {
    size_t scheme = 0;
    if (entry->length > 7 && strncmp(entry->start, "http://", 7) == 0) scheme = 7;
    else if (entry->length > 8 && strncmp(entry->start, "https://", 8) == 0) scheme = 8;
    else return false;
    bool port = false;
    for (size_t i = scheme; i < entry->length; i++) {
        char c = entry->start[i];
        if (c == ':' && !port && i > scheme) port = true;
        else if (port ? !(c >= '0' && c <= '9')
                      : !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'))
            return false;
    }
    return entry->start[entry->length - 1] != ':';
}

bool cors_origins_valid(const char *list, char *why, size_t why_size) {
    if (strcmp(list, "*") == 0) return true;
    const char *cursor = list;
    cors_entry entry;
    unsigned count = 0;
    while (next_entry(&cursor, &entry)) {
        if (entry.length == 0 || !is_origin(&entry)) {
            snprintf(why, why_size,
                     "'%.*s' is not an origin: write \"*\" alone, or origins such as https://example.org or "
                     "http://localhost:5173 (lowercase, no path), separated by commas",
                     (int)(entry.length < 80 ? entry.length : 80), entry.start);
            return false;
        }
        count++;
    }
    if (count == 0) snprintf(why, why_size, "the list of origins is empty");
    return count > 0;
}

const char *cors_allowed_origin(const char *list, const char *origin) {
    if (strcmp(list, "*") == 0) return "*";
    if (origin == NULL) return NULL;
    size_t length = strlen(origin);
    const char *cursor = list;
    cors_entry entry;
    while (next_entry(&cursor, &entry))
        if (entry.length == length && memcmp(entry.start, origin, length) == 0) return origin;
    return NULL;
}

bool cors_varies(const char *list) { return strcmp(list, "*") != 0; }
