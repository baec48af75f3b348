/* The allocation wrappers of the PUZZLED_ALLOC_FAIL build, a test tool (the hooks the server calls are
 * declared in server/alloc_failure.h); never in a normal build: CMakeLists.txt links it below core and base. The build links with -Wl,--wrap=malloc,calloc,realloc,strdup,strndup, so every call to those
 * from our objects lands in the __wrap_ functions here, while libmicrohttpd, zlib, glibc and cJSON's
 * own objects keep the real ones. What they allocate for us is routed through our code anyway:
 *   - cJSON: api/json_allocation.c installs cJSON_InitHooks with a malloc of ours at start-up;
 *   - zlib: server/compression.c gives deflate zalloc/zfree hooks of ours.
 *
 * GMP is not routed. GMP's manual ("Custom Allocation") requires that its allocation functions never
 * return NULL: a failed GMP allocation can only abort or jump out of GMP, and jumping out (longjmp
 * from a recovery point per request) would strand every other block the request holds. Instead the
 * numbers GMP works on are bounded by the request limits (api/limits.h, --max-rank-items: a factorial
 * of at most that many items), which bounds GMP's allocations per request; running out of memory
 * inside GMP ends the process, as GMP documents, and the allocation-failure test does not reach it.
 *
 * The countdown is global, not per thread: one request is armed at a time, and its work crosses threads
 * (I/O thread, worker, stream pieces, lent counting threads). A client sends the next armed request
 * only after the report line of the last one: that request's end may come after the client has read
 * its whole answer, and with several I/O threads it would otherwise disarm the next request, armed
 * meanwhile on another thread (which then answers 200: tests/alloc_failure/run.py and the contract
 * test wait for the line). */
#include "server/alloc_failure.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *block, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *block, size_t size);
char *__wrap_strdup(const char *text);
char *__wrap_strndup(const char *text, size_t most);

static atomic_bool armed;
static atomic_long armed_k;
static atomic_long counted; /* allocations since armed; the one that makes it k fails */

/* Counts one allocation; true when it is the one to fail. */
static bool fails_now(void) {
    if (!atomic_load_explicit(&armed, memory_order_acquire)) return false;
    if (atomic_fetch_add(&counted, 1) + 1 != atomic_load(&armed_k)) return false;
    errno = ENOMEM;
    return true;
}

void *__wrap_malloc(size_t size) { return fails_now() ? NULL : __real_malloc(size); }

void *__wrap_calloc(size_t count, size_t size) { return fails_now() ? NULL : __real_calloc(count, size); }

void *__wrap_realloc(void *block, size_t size) { return fails_now() ? NULL : __real_realloc(block, size); }

static char *copy_of(const char *text, size_t len) {
    char *copy = __wrap_malloc(len + 1);
    if (copy == NULL) return NULL;
    memcpy(copy, text, len);
    copy[len] = '\0';
    return copy;
}

char *__wrap_strdup(const char *text) { return copy_of(text, strlen(text)); }

char *__wrap_strndup(const char *text, size_t most) { return copy_of(text, strnlen(text, most)); }

bool alloc_failure_arm(const char *header_value) {
    if (header_value == NULL) return false;
    char *end;
    errno = 0;
    long k = strtol(header_value, &end, 10);
    if (errno != 0 || end == header_value || *end != '\0' || k < 1) return false;
    atomic_store(&armed_k, k);
    atomic_store(&counted, 0);
    atomic_store_explicit(&armed, true, memory_order_release);
    return true;
}

void alloc_failure_report(void) {
    if (!atomic_exchange(&armed, false)) return;
    long k = atomic_load(&armed_k), n = atomic_load(&counted);
    char line[96]; /* written with write(2): stdio could allocate */
    int len = snprintf(line, sizeof line, "alloc-failure: k=%ld %s after %ld allocations\n", k,
                       n >= k ? "fired" : "missed", n);
    if (len > 0 && write(STDERR_FILENO, line, (size_t)len) < 0) return;
}
