/* Accept matching (see accept.h): a walk over one header value's comma-separated media ranges,
 * keeping the q of the most specific one that matches. No number is parsed: a q decides only whether
 * it is zero ("0", "0.", "0.000"). */
#include "server/accept.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

/* `*start` moved past the spaces and tabs that open [*start, stop), and the length left once those
 * that close it are dropped too. */
static size_t trimmed(const char **start, const char *stop) {
    const char *from = *start, *to = stop;
    while (from < to && (*from == ' ' || *from == '\t')) from++;
    while (to > from && (to[-1] == ' ' || to[-1] == '\t')) to--;
    *start = from;
    return (size_t)(to - from);
}

/* How specifically the media range `range` (len bytes) matches `type` (type_len bytes, its main type
 * main_len of them): 2 the type itself, 1 its main type's wildcard, 0 star/star, -1 no match. */
static int specificity(const char *range, size_t len, const char *type, size_t type_len, size_t main_len) {
    if (len == 3 && memcmp(range, "*/*", 3) == 0) return 0;
    if (len == main_len + 2 && strncasecmp(range, type, main_len + 1) == 0 && range[len - 1] == '*') return 1;
    if (len == type_len && strncasecmp(range, type, len) == 0) return 2;
    return -1;
}

/* Whether a qvalue (len bytes) is zero: "0", "0." or "0." and zeros. */
static bool zero_qvalue(const char *value, size_t len) {
    if (len == 0 || value[0] != '0') return false;
    if (len == 1) return true;
    if (value[1] != '.') return false;
    for (size_t i = 2; i < len; i++) {
        if (value[i] != '0') return false;
    }
    return true;
}

/* Whether the parameters of a media range, [params, stop) each opened by ';', hold a q of zero. */
static bool zero_quality(const char *params, const char *stop) {
    for (const char *at = params; at != NULL && at < stop;) {
        const char *next = memchr(at + 1, ';', (size_t)(stop - at - 1));
        const char *name = at + 1;
        size_t len = trimmed(&name, next != NULL ? next : stop);
        if (len >= 2 && (name[0] == 'q' || name[0] == 'Q') && name[1] == '=') return zero_qvalue(name + 2, len - 2);
        at = next;
    }
    return false;
}

bool accept_allows(const char *accept, const char *type) {
    if (accept == NULL) return true;
    size_t type_len = strlen(type), main_len = strcspn(type, "/");
    int best = -1;
    bool best_refuses = false, any_range = false;
    for (const char *range = accept; *range != '\0';) {
        const char *stop = range + strcspn(range, ",");
        const char *params = memchr(range, ';', (size_t)(stop - range));
        const char *name = range;
        size_t len = trimmed(&name, params != NULL ? params : stop);
        if (len > 0) {
            any_range = true;
            int how = specificity(name, len, type, type_len, main_len);
            if (how > best) {
                best = how;
                best_refuses = zero_quality(params, stop);
            }
        }
        range = *stop == ',' ? stop + 1 : stop;
    }
    return !any_range || (best >= 0 && !best_refuses);
}

bool accept_allows_any(const char *accept, const char *const *types) {
    for (const char *const *type = types; *type != NULL; type++) {
        if (accept_allows(accept, *type)) return true;
    }
    return false;
}
