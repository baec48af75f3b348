/* A big integer (GMP) written into a JSON answer as a string of decimal digits. Apart from the JSON
 * writer (base/json_writer.h) because its digits come from core/common/decimal.h, which converts
 * numbers of a million bits and more on two cores: the base layer stands on no layer of ours. */
#ifndef PUZZLED_API_JSON_BIG_INTEGER_H
#define PUZZLED_API_JSON_BIG_INTEGER_H

#include <gmp.h>

#include "base/json_writer.h"

/* `v` as a JSON string of decimal digits, e.g. "479001600". */
void jw_mpz_string(json_writer *w, const mpz_t v);

#endif
