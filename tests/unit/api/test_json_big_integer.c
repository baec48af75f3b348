/* Unit tests for api/json_big_integer: a big integer is written as the JSON string of its decimal
 * digits (30! as OEIS A000142 lists it). */
#include <criterion/criterion.h>
#include <gmp.h>

#include "api/json_big_integer.h"

Test(json_big_integer, big_integers_are_decimal_strings) {
    mpz_t v;
    mpz_init(v);
    mpz_fac_ui(v, 30);
    json_writer w;
    bb_init(&w);
    jw_mpz_string(&w, v);
    cr_assert_str_eq(w.data, "\"265252859812191058636308480000000\"");
    mpz_clear(v);
    bb_free(&w);
}
