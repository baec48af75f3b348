/* The outcome of a permutation computation that allocates or may run out of time. */
#ifndef PUZZLED_CORE_PERM_STATUS_H
#define PUZZLED_CORE_PERM_STATUS_H

typedef enum perm_status {
    PERM_OK,
    PERM_NO_MEMORY,
    PERM_DEADLINE, /* the deadline passed before the answer was known */
} perm_status;

#endif
