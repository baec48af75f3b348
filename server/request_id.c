/* Request ids (see request_id.h). */
#include "server/request_id.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static uint64_t process_prefix;
static atomic_uint_fast64_t counter;

void request_id_start(void) {
    if (getrandom(&process_prefix, sizeof process_prefix, 0) != sizeof process_prefix)
        process_prefix = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ULL; /* no entropy: still per start */
}

static bool acceptable(const char *given) {
    size_t length = strlen(given);
    if (length == 0 || length > REQUEST_ID_MAX_LENGTH) return false;
    for (size_t i = 0; i < length; i++) {
        char c = given[i];
        bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == ':' || c == '-';
        if (!safe) return false;
    }
    return true;
}

void request_id_choose(char out[REQUEST_ID_MAX_LENGTH + 1], const char *given) {
    if (given != NULL && acceptable(given)) {
        memcpy(out, given, strlen(given) + 1);
        return;
    }
    uint64_t n = atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    snprintf(out, REQUEST_ID_MAX_LENGTH + 1, "%016llx-%016llx", (unsigned long long)process_prefix,
             (unsigned long long)n);
}
