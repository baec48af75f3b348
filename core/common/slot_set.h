/* The set of slots 0..n-1 still free while an arrangement of distinct positions is turned into
 * Lehmer digits or back: "how many free slots lie below slot i", "the r-th free slot", and taking a
 * slot. A bitmap (one bit a slot) with a Fenwick tree of each 64-bit word's count: for 10^6 slots
 * 250 KB, which stays in cache, where a Fenwick tree of a count per slot (8 MB) missed cache at most
 * of its levels on every select (the most of unrank's own time after the big numbers). */
#ifndef PUZZLED_CORE_SLOT_SET_H
#define PUZZLED_CORE_SLOT_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/common/fenwick.h"

typedef struct slot_set {
    size_t n;
    uint64_t *words;     /* bit i % 64 of word i / 64: slot i is free */
    fenwick word_counts; /* free slots in each word */
} slot_set;

/* All n slots free. False when out of memory (then nothing is held). */
bool slot_set_init_free(slot_set *s, size_t n);
void slot_set_free(slot_set *s);

/* Slot i (free) is taken. */
void slot_set_take(slot_set *s, size_t i);
/* The free slots among 0..i-1. */
size_t slot_set_free_below(const slot_set *s, size_t i);
/* The r-th free slot (0-based); r must be below the number of free slots. */
size_t slot_set_select(const slot_set *s, size_t r);
/* The free slots in ascending order, into `out`. */
void slot_set_list_free(const slot_set *s, uint32_t *out);

#endif
