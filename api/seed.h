/* The `seed` field shared by the endpoints that draw random numbers (/shuffle, /sudoku/generate,
 * /word-ladder/puzzle), the one reader of it:
 * an unsigned 64-bit integer (a JSON number up to 2^53-1 or a string of decimal digits) expanded by
 * splitmix64, or a string of 64 hex digits that is the xoshiro256** state itself; absent, a fresh
 * seed from the OS. The same seed gives the same stream on every machine. */
#ifndef PUZZLED_API_SEED_H
#define PUZZLED_API_SEED_H

#include <stdbool.h>

#include "api/api.h"
#include "core/random/rng.h"

enum { SEED_HEX_DIGITS = 64, SEED_TEXT_SIZE = SEED_HEX_DIGITS + 1 };

/* Seeds `generator` from the field `name` (or a fresh seed) and writes the seed as the answer
 * reports it to `seed_text`: decimal digits, or the 64 hex digits in lowercase. */
bool param_seed(api_request *req, const char *name, rng *generator, char seed_text[SEED_TEXT_SIZE]);

/* The 500 internal_error when the operating system gives no randomness (a fresh seed, a secure
 * shuffle): one wording for every endpoint. Returns false. */
bool seed_fail_no_randomness(api_request *req);

#endif
