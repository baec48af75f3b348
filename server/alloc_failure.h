/* Allocation-failure injection, compiled in only by the PUZZLED_ALLOC_FAIL build
 * (docs/fuzzing.md#allocation-failure-injection). A request with the header `X-Fail-Allocation: k`
 * makes the k-th allocation our code performs from then on fail (return NULL), wherever it happens:
 * the I/O thread, the worker, the pieces of a stream. When the request ends, one line on stderr says
 * whether that allocation was reached and how many were counted:
 *     alloc-failure: k=K fired|missed after N allocations
 * The server calls the two hooks below; the test tool tests/alloc_failure/alloc_failure.c defines them
 * with the wrappers. In every other build the calls below are empty and the header is an ordinary,
 * ignored header. */
#ifndef PUZZLED_SERVER_ALLOC_FAILURE_H
#define PUZZLED_SERVER_ALLOC_FAILURE_H

#define ALLOC_FAILURE_HEADER "X-Fail-Allocation"

#include <stdbool.h>

#ifdef PUZZLED_ALLOC_FAIL
/* Arms the countdown from the header's value (a decimal k >= 1) and returns true; NULL or anything
 * else: nothing, false. */
bool alloc_failure_arm(const char *header_value);
/* At the end of the request that armed it: writes the stderr line and disarms. */
void alloc_failure_report(void);
#else /* the header is not even looked up */
#define alloc_failure_arm(header_value) false
#define alloc_failure_report() ((void)0)
#endif

#endif
