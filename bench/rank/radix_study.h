/* The radix-conversion study of bench_rank (radix_study.c): `bench_rank radix BITS`. */
#ifndef PUZZLED_BENCH_RADIX_STUDY_H
#define PUZZLED_BENCH_RADIX_STUDY_H

#include <stddef.h>

/* Prints the per-level costs of GMP's conversion and of a scaled remainder tree; returns 0. */
int radix_study(size_t bits);

#endif
