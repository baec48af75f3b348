/* A big integer as a JSON string (see json_big_integer.h). */
#include "api/json_big_integer.h"

#include "core/common/decimal.h"

void jw_mpz_string(json_writer *w, const mpz_t v) {
    if (!bb_reserve(w, decimal_room(v) + 2)) return;
    jw_char(w, '"');
    w->len += decimal_write(w->data + w->len, v);
    jw_char(w, '"');
}
