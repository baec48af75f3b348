/* Arithmetic runs of numbers (first, first + step, ...) written as JSON array items, formatted
 * incrementally: the next number's text is the previous one's with its last digit moved on (and a
 * carry every few numbers), not a fresh conversion, and where every number of a stretch has the same
 * width each is stored with one word at a fixed distance from the last. For streams of long arithmetic
 * runs, such as the n-queens construction's columns (api/queens/queens.c). */
#ifndef PUZZLED_API_JSON_NUMBER_RUNS_H
#define PUZZLED_API_JSON_NUMBER_RUNS_H

#include <stdint.h>

#include "base/json_writer.h"

/* The largest step jw_put_uint_run takes: one digit, so that a step moves the last digit and carries
 * at most one into the tens. */
enum { JW_RUN_MAX_STEP = 9 };

/* Writes `count` numbers first, first + step, ..., first + (count - 1) * step, each after a comma
 * (",5,7,9"), at `to` and returns the end; step from 1 to JW_RUN_MAX_STEP, the last number below
 * 2^64. `to` must have room for the text written plus JW_UINT_MAX_DIGITS bytes: it may store a word
 * past the last number. The text is the same as a comma and jw_put_uint for each number. */
char *jw_put_uint_run(char *to, uint64_t first, unsigned step, uint64_t count);

#endif
