/* Request-derived entity tags (see etag.h). FNV-1a over 128 bits (offset basis and prime from the
 * FNV specification, draft-eastlake-fnv), fed with each part and a separator byte that cannot occur
 * inside a part's text, then with each field's name and its parsed value walked as it is (a type
 * byte, a number's double, a string's length and bytes, an array's or object's members and an end
 * byte): printing the value again would cost more than the hashing. */
#include "server/etag.h"

#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

static u128 fnv_offset_basis(void) { return ((u128)0x6c62272e07bb0142ULL << 64) | 0x62b821756295c58dULL; }

static u128 fnv_prime(void) { return ((u128)1 << 88) | 0x13b; }

static void fnv_feed_bytes(u128 *hash, const void *bytes, size_t length) {
    for (const unsigned char *p = bytes, *end = p + length; p < end; p++) {
        *hash ^= *p;
        *hash *= fnv_prime();
    }
}

static void fnv_feed(u128 *hash, const char *text) {
    fnv_feed_bytes(hash, text, strlen(text));
    fnv_feed_bytes(hash, "\xff", 1); /* the separator: 0xff never appears in UTF-8 text */
}

/* The byte that starts each value, the one that ends an array's or an object's members, and the one
 * that starts a text body. */
enum { TAG_NULL = 1, TAG_FALSE, TAG_TRUE, TAG_NUMBER, TAG_STRING, TAG_ARRAY, TAG_OBJECT, TAG_END, TAG_TEXT_BODY };

static void fnv_feed_length(u128 *hash, size_t length) {
    uint64_t bytes = length;
    fnv_feed_bytes(hash, &bytes, sizeof bytes);
}

/* Values that cJSON prints alike feed the same bytes (1, 1.0 and 1e0 are one double; -0 is not 0,
 * as "-0" is not "0"), and the feed of a value is never the start of another's: strings carry their
 * length, containers their end byte. */
static void fnv_feed_value(u128 *hash, const cJSON *value) {
    unsigned char tag = cJSON_IsNull(value)     ? TAG_NULL
                        : cJSON_IsFalse(value)  ? TAG_FALSE
                        : cJSON_IsTrue(value)   ? TAG_TRUE
                        : cJSON_IsNumber(value) ? TAG_NUMBER
                        : cJSON_IsString(value) ? TAG_STRING
                        : cJSON_IsArray(value)  ? TAG_ARRAY
                                                : TAG_OBJECT;
    fnv_feed_bytes(hash, &tag, 1);
    if (tag == TAG_NUMBER) {
        fnv_feed_bytes(hash, &value->valuedouble, sizeof value->valuedouble);
    } else if (tag == TAG_STRING) {
        size_t length = strlen(value->valuestring);
        fnv_feed_length(hash, length);
        fnv_feed_bytes(hash, value->valuestring, length);
    } else if (tag == TAG_ARRAY || tag == TAG_OBJECT) {
        for (const cJSON *member = value->child; member != NULL; member = member->next) {
            if (tag == TAG_OBJECT) {
                size_t length = strlen(member->string);
                fnv_feed_length(hash, length);
                fnv_feed_bytes(hash, member->string, length);
            }
            fnv_feed_value(hash, member);
        }
        unsigned char end = TAG_END;
        fnv_feed_bytes(hash, &end, 1);
    }
}

/* The 16 lowercase hex digits of `value` at `to`; returns their end. */
static char *put_hex(char *to, uint64_t value) {
    for (int shift = 60; shift >= 0; shift -= 4) *to++ = "0123456789abcdef"[(value >> shift) & 0xf];
    return to;
}

etag_seed etag_seed_of(const char *server_fingerprint) {
    u128 hash = fnv_offset_basis();
    fnv_feed(&hash, server_fingerprint);
    return (etag_seed){.high = (uint64_t)(hash >> 64), .low = (uint64_t)hash};
}

void etag_of_request(char out[ETAG_SIZE], const etag_seed *seed, const char *route_path, const char *representation,
                     const cJSON *params, const char *text_body, size_t text_body_len) {
    u128 hash = ((u128)seed->high << 64) | seed->low;
    fnv_feed(&hash, route_path);
    fnv_feed(&hash, representation);
    for (const cJSON *field = params->child; field != NULL; field = field->next) {
        if (strcmp(field->string, "time_limit_ms") == 0) continue;
        fnv_feed(&hash, field->string);
        fnv_feed_value(&hash, field);
    }
    if (text_body != NULL) { /* after the fields' values, whose feeds never start with this tag */
        unsigned char tag = TAG_TEXT_BODY;
        fnv_feed_bytes(&hash, &tag, 1);
        fnv_feed_length(&hash, text_body_len);
        fnv_feed_bytes(&hash, text_body, text_body_len);
    }
    char *to = out;
    *to++ = '"';
    to = put_hex(to, (uint64_t)(hash >> 64));
    to = put_hex(to, (uint64_t)hash);
    *to++ = '"';
    *to = '\0';
}

bool etag_matches(const char *if_none_match, const char *etag) {
    size_t tag_length = strlen(etag);
    for (const char *p = if_none_match; *p != '\0';) {
        while (*p == ' ' || *p == '\t' || *p == ',') p++;
        if (*p == '*') return true;
        if (p[0] == 'W' && p[1] == '/') p += 2; /* weak comparison, as RFC 9110 asks for If-None-Match */
        if (strncmp(p, etag, tag_length) == 0 &&
            (p[tag_length] == '\0' || p[tag_length] == ',' || p[tag_length] == ' ' || p[tag_length] == '\t'))
            return true;
        while (*p != '\0' && *p != ',') p++;
    }
    return false;
}
