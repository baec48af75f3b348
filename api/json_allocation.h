/* cJSON's allocations routed through our own malloc (cJSON_InitHooks), for two reasons: a failed
 * allocation inside cJSON is otherwise indistinguishable from bad input (cJSON_Parse returns NULL for
 * both), and the allocation-failure build (server/alloc_failure.h) can only count and fail allocations
 * made from our objects. */
#ifndef PUZZLED_API_JSON_ALLOCATION_H
#define PUZZLED_API_JSON_ALLOCATION_H

/* Installs the hooks; call once at start-up, before any other thread uses cJSON. */
void json_allocation_install(void);

/* How many cJSON allocations have failed on this thread so far: compare before and after a cJSON call
 * that returned NULL to tell "out of memory" from "invalid". */
unsigned json_allocation_failures(void);

#endif
