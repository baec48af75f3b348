/* Arithmetic runs of numbers as JSON array items, formatted incrementally (see json_number_runs.h).
 *
 * Within a stretch of numbers of one width, a number's token (its comma, then its digits, most
 * significant first) is kept in a 64-bit word whose byte i is the token's byte i (little-endian), so a
 * step adds to the last digit's byte and the whole token is stored at once, each token right after the
 * last (the bytes past it are overwritten by the next token, or lie in the room the caller reserved).
 * When the last digit passes 9 it wraps and one is carried into the tens, rippling through nines
 * towards the most significant digit; a stretch ends before the width grows, so a carry never reaches
 * the comma. Numbers wider than a word holds, and big-endian machines, take the plain way: a comma and
 * jw_put_uint per number. */
#include "api/queens/json_number_runs.h"

#include <string.h>

/* One number at a time. */
static char *put_each(char *to, uint64_t value, unsigned step, uint64_t count) {
    for (; count > 0; count--, value += step) {
        *to++ = ',';
        to = jw_put_uint(to, value);
    }
    return to;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* A token of a comma and up to TOKEN_MAX_DIGITS digits fills at most one word. */
enum { TOKEN_MAX_DIGITS = 7 };

/* Adds one to the digit in byte `at` of the token, carrying through nines towards byte 1. */
static uint64_t add_one_at(uint64_t token, unsigned at) {
    while ((token >> (8 * at) & 0xFF) == '9') {
        token -= (uint64_t)9 << (8 * at); /* '9' -> '0' */
        at--;
    }
    return token + ((uint64_t)1 << (8 * at));
}

/* `count` numbers from `value` on, all of `width` digits (at most TOKEN_MAX_DIGITS). */
static char *put_same_width(char *to, uint64_t value, unsigned step, uint64_t count, unsigned width) {
    char text[1 + JW_UINT_MAX_DIGITS] = {','};
    jw_put_uint(text + 1, value);
    uint64_t token;
    memcpy(&token, text, sizeof token);
    unsigned last = (unsigned)(value % 10), last_shift = 8 * width;
    for (;;) {
        memcpy(to, &token, sizeof token);
        to += 1 + width;
        if (--count == 0) return to;
        last += step;
        if (last < 10) {
            token += (uint64_t)step << last_shift;
        } else { /* the last digit wraps: step - 10 there, one more in the tens */
            last -= 10;
            token = add_one_at(token - ((uint64_t)(10 - step) << last_shift), width - 1);
        }
    }
}
#endif

char *jw_put_uint_run(char *to, uint64_t first, unsigned step, uint64_t count) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (count > 0) {
        unsigned width = 1;
        uint64_t width_end = 10; /* the first number one digit wider */
        for (; width_end <= first && width < TOKEN_MAX_DIGITS; width_end *= 10) width++;
        if (first >= width_end) break; /* wider than a word holds: the rest one at a time */
        uint64_t same_width = (width_end - 1 - first) / step + 1;
        uint64_t now = same_width < count ? same_width : count;
        to = put_same_width(to, first, step, now, width);
        count -= now;
        first += now * step;
    }
#endif
    return put_each(to, first, step, count);
}
