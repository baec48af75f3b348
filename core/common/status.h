/* The one vocabulary for how a core computation ended when the only ways it can fail are shared by
 * all of core/: memory ran out, or the deadline passed. api/ maps it to HTTP in one place
 * (api_fail_status). What a computation that did not fail found, including the outcomes of its own
 * domain (a tour that provably does not exist, a board with no completion, a word list that cannot
 * be read), comes back in its results, never as another status. */
#ifndef PUZZLED_CORE_STATUS_H
#define PUZZLED_CORE_STATUS_H

typedef enum core_status {
    CORE_OK,
    CORE_NO_MEMORY,
    CORE_DEADLINE, /* the deadline passed before the answer was known */
} core_status;

#endif
