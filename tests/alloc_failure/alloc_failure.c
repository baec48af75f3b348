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
 * test wait for the line).
 *
 * `X-Fail-Allocation: stacks` fails nothing and reports, after the count, the call stack of each
 * allocation as a hash (the return addresses, meaningful within the one process): a test that needs a
 * fresh process for each failed allocation fails only the first of each stack (run.py's FIRST_USE). */
#include "server/alloc_failure.h"

#include <errno.h>
#include <execinfo.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
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

#define STACK_FRAMES 32       /* return addresses hashed into an allocation's stack: deeper than any of ours */
#define STACKS_LISTED 4096    /* allocations whose stack a report lists; a request making more lists these */
#define STACK_HASH_CHARS 9    /* " %08x" */
#define REPORT_HEAD_CHARS 128 /* the line before the stacks: "alloc-failure: k=... allocations, stacks" */
#define NEVER_FAILS LONG_MAX
static atomic_bool listing_stacks;
static _Atomic uint32_t stacks[STACKS_LISTED];

/* The FNV-1a hash of the calling thread's stack of return addresses. */
static uint32_t stack_hash(void) {
    void *frames[STACK_FRAMES];
    int depth = backtrace(frames, STACK_FRAMES);
    uint32_t hash = 2166136261u;
    for (int i = 0; i < depth; i++) {
        uintptr_t address = (uintptr_t)frames[i];
        for (size_t byte = 0; byte < sizeof address; byte++) {
            hash ^= (uint32_t)(address >> (8 * byte)) & 0xffu;
            hash *= 16777619u;
        }
    }
    return hash;
}

/* Counts one allocation; true when it is the one to fail. */
static bool fails_now(void) {
    if (!atomic_load_explicit(&armed, memory_order_acquire)) return false;
    long index = atomic_fetch_add(&counted, 1);
    if (atomic_load(&listing_stacks) && index < STACKS_LISTED)
        atomic_store_explicit(&stacks[index], stack_hash(), memory_order_relaxed);
    if (index + 1 != atomic_load(&armed_k)) return false;
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
    bool list_stacks = strcmp(header_value, "stacks") == 0;
    char *end;
    errno = 0;
    long k = list_stacks ? NEVER_FAILS : strtol(header_value, &end, 10);
    if (!list_stacks && (errno != 0 || end == header_value || *end != '\0' || k < 1)) return false;
    atomic_store(&listing_stacks, list_stacks);
    atomic_store(&armed_k, k);
    atomic_store(&counted, 0);
    atomic_store_explicit(&armed, true, memory_order_release);
    return true;
}

void alloc_failure_report(void) {
    if (!atomic_exchange(&armed, false)) return;
    long k = atomic_load(&armed_k), n = atomic_load(&counted);
    /* written with write(2): stdio could allocate; one report at a time (the exchange above) */
    static char line[REPORT_HEAD_CHARS + STACKS_LISTED * STACK_HASH_CHARS + 1];
    int len = snprintf(line, REPORT_HEAD_CHARS, "alloc-failure: k=%ld %s after %ld allocations", k,
                       n >= k ? "fired" : "missed", n);
    if (len <= 0) return;
    if (atomic_exchange(&listing_stacks, false)) {
        len += snprintf(line + len, REPORT_HEAD_CHARS - (size_t)len, ", stacks");
        for (long i = 0; i < n && i < STACKS_LISTED; i++)
            len += snprintf(line + len, sizeof line - (size_t)len, " %08x",
                            atomic_load_explicit(&stacks[i], memory_order_relaxed));
    }
    line[len++] = '\n';
    if (write(STDERR_FILENO, line, (size_t)len) < 0) return;
}
