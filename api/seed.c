/* The shared `seed` field (see seed.h). */
#include "api/seed.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static bool fail_seed(api_request *req, const char *name, const char *problem) {
    return api_fail(req, API_INVALID_FIELD, name,
                    "'%s' %s: give an unsigned 64-bit integer (a JSON number up to 9007199254740991, or a "
                    "string of decimal digits up to 18446744073709551615) or a string of exactly 64 hex "
                    "digits (256 bits)",
                    name, problem);
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* A 64-hex-digit seed: the state words are the four groups of 16 digits, most significant first.
 * `seed_text` gets the digits in lowercase. */
static bool seed_from_hex(api_request *req, const char *name, const char *text, rng *generator, char *seed_text) {
    uint64_t state[4] = {0};
    for (int i = 0; i < SEED_HEX_DIGITS; i++) {
        int digit = hex_value(text[i]);
        if (digit < 0) return fail_seed(req, name, "of 64 characters has a character that is not a hex digit");
        state[i / 16] = state[i / 16] << 4 | (uint64_t)digit;
        seed_text[i] = "0123456789abcdef"[digit];
    }
    seed_text[SEED_HEX_DIGITS] = '\0';
    if (!rng_seed_state(generator, state))
        return fail_seed(req, name, "must not be 64 zeros (xoshiro256** cannot leave the all-zero state)");
    return true;
}

/* A decimal string up to 2^64-1 (leading zeros allowed). */
static bool seed_from_decimal(api_request *req, const char *name, const char *text, uint64_t *seed) {
    size_t digits = strspn(text, "0123456789");
    if (digits == 0 || text[digits] != '\0') return fail_seed(req, name, "is neither decimal digits nor 64 hex digits");
    uint64_t value = 0;
    for (const char *p = text; *p != '\0'; p++) {
        uint64_t digit = (uint64_t)(*p - '0');
        if (value > (UINT64_MAX - digit) / 10)
            return fail_seed(req, name, "is larger than 18446744073709551615 (2^64-1)");
        value = value * 10 + digit;
    }
    *seed = value;
    return true;
}

bool param_seed(api_request *req, const char *name, rng *generator, char seed_text[SEED_TEXT_SIZE]) {
    const cJSON *seed_value = cJSON_GetObjectItemCaseSensitive(req->params, name);
    uint64_t seed;
    if (seed_value == NULL) {
        if (!rng_fresh_seed(&seed)) return seed_fail_no_randomness(req);
    } else if (cJSON_IsNumber(seed_value)) {
        if (seed_value->valuedouble < 0) return fail_seed(req, name, "is negative");
        seed = (uint64_t)seed_value->valuedouble;
    } else if (strlen(seed_value->valuestring) == SEED_HEX_DIGITS) {
        return seed_from_hex(req, name, seed_value->valuestring, generator, seed_text);
    } else if (!seed_from_decimal(req, name, seed_value->valuestring, &seed)) {
        return false;
    }
    rng_seed_u64(generator, seed);
    snprintf(seed_text, SEED_TEXT_SIZE, "%" PRIu64, seed);
    return true;
}

bool seed_fail_no_randomness(api_request *req) {
    return api_fail(req, API_INTERNAL_ERROR, NULL, "the operating system gave no randomness");
}
